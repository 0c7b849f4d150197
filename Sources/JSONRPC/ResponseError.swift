/// A JSON-RPC / LSP error code.
package struct ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  package var rawValue: Int

  package init(rawValue: Int) { self.rawValue = rawValue }

  // JSON-RPC 2.0

  /// Invalid JSON was received (-32700).
  package static let parseError = ErrorCode(rawValue: -32700)
  /// The JSON sent is not a valid request object (-32600).
  package static let invalidRequest = ErrorCode(rawValue: -32600)
  /// The method does not exist or is not available (-32601).
  package static let methodNotFound = ErrorCode(rawValue: -32601)
  /// Invalid method parameters (-32602).
  package static let invalidParams = ErrorCode(rawValue: -32602)
  /// Internal JSON-RPC error (-32603).
  package static let internalError = ErrorCode(rawValue: -32603)

  // LSP

  /// A request arrived before `initialize` (-32002).
  package static let serverNotInitialized = ErrorCode(rawValue: -32002)
  /// LSP's generic unknown error (-32001).
  package static let unknownErrorCode = ErrorCode(rawValue: -32001)
  /// The request was cancelled by the client (`$/cancelRequest`) (-32800).
  package static let requestCancelled = ErrorCode(rawValue: -32800)
  /// The document changed so the result is no longer valid (-32801).
  package static let contentModified = ErrorCode(rawValue: -32801)
  /// The server cancelled the request (-32802).
  package static let serverCancelled = ErrorCode(rawValue: -32802)
  /// A syntactically valid request that failed (-32803).
  package static let requestFailed = ErrorCode(rawValue: -32803)

  package var description: String { String(rawValue) }
}

/// The `error` member of a JSON-RPC response.
package struct ResponseError: Error, Hashable, Sendable, CustomStringConvertible {
  package var code: ErrorCode
  package var message: String
  package var data: JSONValue?

  package init(code: ErrorCode, message: String, data: JSONValue? = nil) {
    self.code = code
    self.message = message
    self.data = data
  }

  /// `{code, message, data?}`.
  package var json: JSONValue {
    var object: JSONObject = ["code": JSONValue(code.rawValue), "message": .string(message)]
    if let data { object["data"] = data }
    return .object(object)
  }

  /// Reads an error object; nil if `code` is not an integer or `message` not a string.
  package init?(json: JSONValue) {
    guard let code = json["code"]?.intValue, let message = json["message"]?.stringValue else {
      return nil
    }
    self.init(code: ErrorCode(rawValue: code), message: message, data: json["data"])
  }

  package var description: String { "\(code.rawValue): \(message)" }

  // MARK: Common errors

  package static func parseError(_ message: String) -> ResponseError {
    ResponseError(code: .parseError, message: message)
  }
  package static func invalidRequest(_ message: String) -> ResponseError {
    ResponseError(code: .invalidRequest, message: message)
  }
  package static func methodNotFound(_ method: String) -> ResponseError {
    ResponseError(code: .methodNotFound, message: "Unknown method: \(method)")
  }
  package static func invalidParams(_ message: String) -> ResponseError {
    ResponseError(code: .invalidParams, message: message)
  }
  package static func internalError(_ message: String) -> ResponseError {
    ResponseError(code: .internalError, message: message)
  }
  package static let serverNotInitialized = ResponseError(
    code: .serverNotInitialized, message: "The server has not been initialized")
  package static let requestCancelled = ResponseError(
    code: .requestCancelled, message: "Request cancelled")
}
