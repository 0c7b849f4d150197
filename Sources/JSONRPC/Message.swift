/// The `id` of a request: an integer or a string.
package enum RequestID: Hashable, Sendable, CustomStringConvertible {
  case integer(Int64)
  case string(String)

  /// An integer or string id; nil for every other JSON value (null included).
  package init?(json: JSONValue) {
    switch json {
    case .integer(let value): self = .integer(value)
    case .string(let value): self = .string(value)
    case .longString(let value): self = .string(value.string)
    default: return nil
    }
  }

  package var json: JSONValue {
    switch self {
    case .integer(let value): return .integer(value)
    case .string(let value): return .string(value)
    }
  }

  package var description: String { json.description }
}

extension RequestID: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
  package init(integerLiteral value: Int64) { self = .integer(value) }
  package init(stringLiteral value: String) { self = .string(value) }
}

/// A request: it has an `id` and expects a response.
package struct Request: Sendable, Hashable {
  package var id: RequestID
  package var method: String
  /// An object or an array; nil when absent (or `null`).
  package var params: JSONValue?

  package init(id: RequestID, method: String, params: JSONValue? = nil) {
    self.id = id
    self.method = method
    self.params = params
  }
}

/// A notification: no `id`, no response.
package struct Notification: Sendable, Hashable {
  package var method: String
  /// An object or an array; nil when absent (or `null`).
  package var params: JSONValue?

  package init(method: String, params: JSONValue? = nil) {
    self.method = method
    self.params = params
  }
}

/// A response to a request. `id` is nil (`null`) only in an error response to
/// a message whose id could not be determined.
package struct Response: Sendable, Hashable {
  package var id: RequestID?
  package var result: Result<JSONValue, ResponseError>

  package init(id: RequestID?, result: Result<JSONValue, ResponseError>) {
    self.id = id
    self.result = result
  }
}

/// A JSON-RPC 2.0 message.
package enum Message: Sendable, Hashable {
  case request(Request)
  case notification(Notification)
  case response(Response)
}

/// A JSON value that is not a valid JSON-RPC 2.0 message.
///
/// The answer is error -32600 (`invalidRequest`) with `id` (nil means
/// `id: null`), unless `isResponse` is true: a broken response is only
/// logged, since answering a response would start an endless exchange.
package struct InvalidMessage: Error, Hashable, Sendable, CustomStringConvertible {
  /// The message's id, when it had a valid one.
  package var id: RequestID?
  /// What is wrong, for the error message.
  package var reason: String
  /// The message looked like a response (no `method`, but `result`/`error`).
  package var isResponse: Bool

  package init(id: RequestID? = nil, reason: String, isResponse: Bool = false) {
    self.id = id
    self.reason = reason
    self.isResponse = isResponse
  }

  /// The -32600 error to answer with.
  package var responseError: ResponseError { .invalidRequest("Invalid request: \(reason)") }

  package var description: String { reason }
}

// MARK: Classification

extension Message {
  /// Classifies a decoded JSON value as a request, notification or response.
  ///
  /// Rules (JSON-RPC 2.0, strict where it matters to LSP clients):
  /// - The value must be an object. An array (a batch, which LSP does not use)
  ///   is refused as a whole.
  /// - `"jsonrpc": "2.0"` is required (every LSP client sends it; a message
  ///   without it is not JSON-RPC 2.0).
  /// - `id`, when present, must be an integer or a string; `"id": null` and
  ///   other types make the message invalid (answered with `id: null`).
  /// - `method` must be a string. `params`, when present, must be an object
  ///   or an array; `"params": null` is read as absent (some clients send it
  ///   for `shutdown`).
  /// - Without `method`, a message with `result` or `error` is a response:
  ///   it needs an id (or `null` with `error`), exactly one of `result` and
  ///   `error`, and an `error` of the form `{code: integer, message: string}`.
  /// - Unknown members are ignored.
  package init(classifying value: JSONValue) throws(InvalidMessage) {
    let object: JSONObject
    switch value {
    case .object(let members): object = members
    case .array:
      throw InvalidMessage(reason: "batch messages (JSON arrays) are not supported")
    default:
      throw InvalidMessage(reason: "a message must be a JSON object, got \(value.typeName)")
    }

    let idValue = object["id"]
    let id = idValue.flatMap(RequestID.init(json:))
    let method = object["method"]
    let isResponse = method == nil && (object["result"] != nil || object["error"] != nil)

    func invalid(_ reason: String) -> InvalidMessage {
      InvalidMessage(id: id, reason: reason, isResponse: isResponse)
    }

    guard object["jsonrpc"] == .string("2.0") else {
      throw invalid("\"jsonrpc\" must be \"2.0\"")
    }

    if isResponse {
      let hasResult = object["result"] != nil
      if let idValue, id == nil, !(idValue.isNull && !hasResult) {
        throw invalid("a response id must be an integer or a string, got \(idValue.typeName)")
      }
      if idValue == nil { throw invalid("a response needs an id") }
      if hasResult, object["error"] != nil {
        throw invalid("a response cannot have both \"result\" and \"error\"")
      }
      if let result = object["result"] {
        self = .response(Response(id: id, result: .success(result)))
      } else {
        guard let errorValue = object["error"], let error = ResponseError(json: errorValue) else {
          throw invalid("\"error\" must be an object with an integer code and a string message")
        }
        self = .response(Response(id: id, result: .failure(error)))
      }
      return
    }

    if let idValue, id == nil {
      throw invalid("\"id\" must be an integer or a string, got \(idValue.typeName)")
    }
    guard let method else { throw invalid("missing \"method\"") }
    guard let methodName = method.stringValue else {
      throw invalid("\"method\" must be a string, got \(method.typeName)")
    }
    var params = object["params"]
    switch params {
    case nil, .object?, .array?: break
    case .null?: params = nil
    case let other?:
      throw invalid("\"params\" must be an object or an array, got \(other.typeName)")
    }
    if let id {
      self = .request(Request(id: id, method: methodName, params: params))
    } else {
      self = .notification(Notification(method: methodName, params: params))
    }
  }
}

// MARK: Encoding

extension Message {
  /// The JSON-RPC object: `jsonrpc` first, then `id`, then the rest.
  package var json: JSONValue {
    var object: JSONObject = ["jsonrpc": "2.0"]
    switch self {
    case .request(let request):
      object["id"] = request.id.json
      object["method"] = .string(request.method)
      if let params = request.params { object["params"] = params }
    case .notification(let notification):
      object["method"] = .string(notification.method)
      if let params = notification.params { object["params"] = params }
    case .response(let response):
      object["id"] = response.id?.json ?? .null
      switch response.result {
      case .success(let result): object["result"] = result
      case .failure(let error): object["error"] = error.json
      }
    }
    return .object(object)
  }

  /// The compact JSON text of the message.
  package func encoded() -> [UInt8] { json.encoded() }
}
