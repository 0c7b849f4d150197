/// A JSON-RPC / LSP error code.
public struct ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public var rawValue: Int

  public init(rawValue: Int) { self.rawValue = rawValue }

  // JSON-RPC 2.0

  /// Invalid JSON was received (-32700).
  public static let parseError = ErrorCode(rawValue: -32700)
  /// The JSON sent is not a valid request object (-32600).
  public static let invalidRequest = ErrorCode(rawValue: -32600)
  /// The method does not exist or is not available (-32601).
  public static let methodNotFound = ErrorCode(rawValue: -32601)
  /// Invalid method parameters (-32602).
  public static let invalidParams = ErrorCode(rawValue: -32602)
  /// Internal JSON-RPC error (-32603).
  public static let internalError = ErrorCode(rawValue: -32603)

  // LSP

  /// A request arrived before `initialize` (-32002).
  public static let serverNotInitialized = ErrorCode(rawValue: -32002)
  /// LSP's generic unknown error (-32001).
  public static let unknownErrorCode = ErrorCode(rawValue: -32001)
  /// The request was cancelled by the client (`$/cancelRequest`) (-32800).
  public static let requestCancelled = ErrorCode(rawValue: -32800)
  /// The document changed so the result is no longer valid (-32801).
  public static let contentModified = ErrorCode(rawValue: -32801)
  /// The server cancelled the request (-32802).
  public static let serverCancelled = ErrorCode(rawValue: -32802)
  /// A syntactically valid request that failed (-32803).
  public static let requestFailed = ErrorCode(rawValue: -32803)

  public var description: String { String(rawValue) }
}

/// The `error` member of a JSON-RPC response.
public struct ResponseError: Error, Hashable, Sendable, CustomStringConvertible {
  public var code: ErrorCode
  public var message: String
  public var data: JSONValue?

  public init(code: ErrorCode, message: String, data: JSONValue? = nil) {
    self.code = code
    self.message = message
    self.data = data
  }

  /// `{code, message, data?}`.
  public var json: JSONValue {
    var object: JSONObject = ["code": JSONValue(code.rawValue), "message": .string(message)]
    if let data { object["data"] = data }
    return .object(object)
  }

  /// Reads an error object; nil if `code` is not an integer or `message` not a string.
  public init?(json: JSONValue) {
    guard let code = json["code"]?.intValue, let message = json["message"]?.stringValue else {
      return nil
    }
    self.init(code: ErrorCode(rawValue: code), message: message, data: json["data"])
  }

  public var description: String { "\(code.rawValue): \(message)" }

  // MARK: Common errors

  public static func parseError(_ message: String) -> ResponseError {
    ResponseError(code: .parseError, message: message)
  }
  public static func invalidRequest(_ message: String) -> ResponseError {
    ResponseError(code: .invalidRequest, message: message)
  }
  public static func methodNotFound(_ method: String) -> ResponseError {
    ResponseError(code: .methodNotFound, message: "Unknown method: \(method)")
  }
  public static func invalidParams(_ message: String) -> ResponseError {
    ResponseError(code: .invalidParams, message: message)
  }
  public static func internalError(_ message: String) -> ResponseError {
    ResponseError(code: .internalError, message: message)
  }
  public static let serverNotInitialized = ResponseError(
    code: .serverNotInitialized, message: "The server has not been initialized")
  public static let requestCancelled = ResponseError(
    code: .requestCancelled, message: "Request cancelled")
}
