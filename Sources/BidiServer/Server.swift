import BidiHazards
import DocumentStore
import JSONRPC
import UnicodeBidi

/// The bidi-lsp protocol server: lifecycle, documents, and the bidi requests.
///
/// A `Connection` calls it on one worker thread, one message at a time, in
/// arrival order, so it needs no locking: a request that follows a
/// `didChange` sees the change. Every problem with a message becomes an error
/// answer or a `window/logMessage`; none stops the server.
public final class BidiLanguageServer: MessageHandler {
  /// The server's name and version, as `initialize` and `--version` report them.
  public static let name = "bidi-lsp"
  public static let version = "0.1.0"

  enum Phase {
    /// Before `initialize`: requests get -32002.
    case uninitialized
    case running
    /// After `shutdown`: only `exit` is expected.
    case shutDown
  }

  typealias RequestHandler =
    @Sendable (BidiLanguageServer) -> (Params, RequestContext) throws(ResponseError) -> JSONValue
  typealias NotificationHandler = @Sendable (BidiLanguageServer) -> (Params, Connection) -> Void

  let logger: Logger
  var phase = Phase.uninitialized
  /// The negotiated position encoding (utf-16 until `initialize` says otherwise).
  var encoding = PositionEncoding.utf16
  /// The defaults of the bidi requests' common options.
  var settings = DirectionSettings()
  var documents = DocumentStore()
  /// Hazard diagnostics per open document, and the rules' settings.
  var hazards: [String: HazardState] = [:]
  var hazardSettings = HazardSettings.default
  /// Whether the client accepts `window/workDoneProgress` reports.
  var clientSupportsProgress = false
  /// The number of progress tokens created so far.
  var progressTokens = 0

  /// Set by `exit`: the status the process should end with.
  public internal(set) var exitStatus: Int32?

  public init(logger: Logger) {
    self.logger = logger
  }

  /// The request methods this server answers, for `initialize`'s
  /// `experimental.bidi.methods` and for the check that every method has a
  /// section in Protocol/specification.md.
  public static var requestMethods: [String] { requestHandlers.keys.sorted() }
  /// The notification methods this server handles.
  public static var notificationMethods: [String] { notificationHandlers.keys.sorted() }

  static let requestHandlers: [String: RequestHandler] = [
    "initialize": { $0.initialize },
    "shutdown": { $0.shutdown },
    "bidi/documentInfo": { $0.documentInfo },
    "bidi/naturalDirection": { $0.naturalDirection },
    "bidi/alignment": { $0.alignment },
    "bidi/visualOrder": { $0.visualOrder },
    "bidi/insertMarks": { $0.insertMarks },
    "textDocument/codeAction": { $0.codeAction },
    "textDocument/hover": { $0.hover },
    "textDocument/inlayHint": { $0.inlayHint },
  ]

  static let notificationHandlers: [String: NotificationHandler] = [
    "initialized": { _ in { _, _ in } },
    "exit": { $0.exit },
    "textDocument/didOpen": { $0.didOpen },
    "textDocument/didChange": { $0.didChange },
    "textDocument/didClose": { $0.didClose },
    "textDocument/didSave": { _ in { _, _ in } },
    "workspace/didChangeConfiguration": { $0.didChangeConfiguration },
  ]

  /// The status to exit with once the connection has ended: the `exit`
  /// notification's, or, at the end of input, 0 after `shutdown` and 1 before.
  public func finalStatus() -> Int32 {
    exitStatus ?? (phase == .shutDown ? 0 : 1)
  }

  // MARK: MessageHandler

  public func handle(request: Request, context: RequestContext) -> Result<JSONValue, ResponseError> {
    switch phase {
    case .uninitialized where request.method != "initialize":
      return .failure(
        ResponseError(code: .serverNotInitialized, message: "the server is not initialized: send initialize first"))
    case .shutDown:
      return .failure(.invalidRequest("the server is shutting down: only exit is accepted after shutdown"))
    default:
      break
    }
    guard let handler = Self.requestHandlers[request.method] else {
      return .failure(.methodNotFound(request.method))
    }
    if context.isCancelled {
      return .failure(.cancelled(context))
    }
    do throws(ResponseError) {
      return .success(try handler(self)(Params(request.params), context))
    } catch {
      logger.debug("\(request.method) \(request.id): \(error)")
      return .failure(error)
    }
  }

  public func handle(notification: Notification, connection: Connection) {
    if phase == .uninitialized && notification.method != "exit" {
      logger.debug("dropped \(notification.method) before initialize")
      return
    }
    guard let handler = Self.notificationHandlers[notification.method] else {
      if !notification.method.hasPrefix("$/") {
        logger.debug("ignored unknown notification \(notification.method)")
      }
      return
    }
    handler(self)(Params(notification.params), connection)
  }

  /// Reports a notification that could not be applied: on the log and to the
  /// client as a `window/logMessage` warning.
  func warn(_ message: String, on connection: Connection) {
    logger.warning(message)
    connection.send(
      notification: "window/logMessage",
      params: ["type": 2, "message": .string("bidi-lsp: \(message)")])
  }
}
