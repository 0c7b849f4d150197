import BidiHazards
import BidiProtocol
import DocumentStore
import JSONRPC
import Localization
import UnicodeBidi

/// The bidi-lsp protocol server: lifecycle, documents, and the bidi requests.
///
/// A `Connection` calls it on one worker thread, one message at a time, in
/// arrival order, so it needs no locking: a request that follows a
/// `didChange` sees the change. Every problem with a message becomes an error
/// answer or a `window/logMessage`; none stops the server.
package final class BidiLanguageServer: MessageHandler {
  /// The server's name and version, as `initialize` and `--version` report them.
  /// This line is where the project's one version is defined:
  /// scripts/release-version.py reads it, and checks (`--check`) or
  /// rewrites (`--set`) its copies in the plugins, packages and examples.
  package static let name = "bidi-lsp"
  package static let version = "0.3.0"

  enum Phase {
    /// Before `initialize`: requests get -32002.
    case uninitialized
    case running
    /// After `shutdown`: only `exit` is expected.
    case shutDown
  }

  /// Decodes a request's typed params, runs its handler and writes its
  /// typed result.
  typealias RequestHandler =
    @Sendable (BidiLanguageServer, JSONValue?, RequestContext, inout JSONWriter) throws(ResponseError) -> Void
  /// Decodes a notification's typed params and runs its handler; params
  /// that cannot be read are reported with `window/logMessage`.
  typealias NotificationHandler = @Sendable (BidiLanguageServer, JSONValue?, Connection) -> Void

  let logger: Logger
  var phase = Phase.uninitialized
  /// The negotiated position encoding (utf-16 until `initialize` says otherwise).
  var encoding = PositionEncoding.utf16
  /// The defaults of the bidi requests' common options.
  var settings = DirectionSettings()
  /// Converts byte offsets within lines to positions in `encoding`.
  var positions: PositionCodec { PositionCodec(encoding) }
  var documents = DocumentStore()
  /// Hazard diagnostics per open document.
  var hazards: [String: HazardState] = [:]
  /// Which diagnostic rules are on, with which severities (`diagnostics`).
  var rules = RuleSettings.default
  /// The structured documents among the open ones (contract §7, §8).
  var structured: [String: StructuredDocument] = [:]
  /// `locale`: the locale of documents whose path and contents name none.
  var localeSetting: String?
  /// `sourceLocale`: the locale whose files translations are compared
  /// with (`SourcePairing`); nil: none, only the sources files hold.
  var sourceLocaleSetting: String? = SourcePairing.defaultSourceLocale
  /// Whether the client accepts `window/workDoneProgress` reports.
  var clientSupportsProgress = false
  /// The number of progress tokens created so far.
  var progressTokens = 0

  /// Set by `exit`: the status the process should end with.
  package internal(set) var exitStatus: Int32?

  package init(logger: Logger) {
    self.logger = logger
  }

  /// The request methods this server answers, for `initialize`'s
  /// `experimental.bidi.methods` and for the check that every method has a
  /// section in Protocol/specification.md.
  package static var requestMethods: [String] { requestHandlers.keys.sorted() }
  /// The notification methods this server handles.
  package static var notificationMethods: [String] { notificationHandlers.keys.sorted() }

  static let requestHandlers: [String: RequestHandler] = [
    "initialize": { server, params, context, result throws(ResponseError) in
      guard server.phase == .uninitialized else {
        throw .invalidRequest("initialize was already received")
      }
      result.value(server.initialize(try InitializeParams(decoding: params), context))
    },
    "shutdown": { server, _, _, result in
      server.shutdown()
      result.null()
    },
    "bidi/documentInfo": { server, params, _, result throws(ResponseError) in
      result.value(try server.documentInfo(DocumentInfoParams(decoding: params)))
    },
    "bidi/naturalDirection": { server, params, context, result throws(ResponseError) in
      let typed = try NaturalDirectionParams(decoding: params, defaults: server.settings)
      try result.stream(NaturalDirectionResult.self, context) { (entries) throws(ResponseError) in
        try server.naturalDirection(typed, context, &entries)
      }
    },
    "bidi/alignment": { server, params, context, result throws(ResponseError) in
      let typed = try AlignmentParams(decoding: params, defaults: server.settings)
      try result.stream(AlignmentResult.self, context) { (entries) throws(ResponseError) in
        try server.alignment(typed, context, &entries)
      }
    },
    "bidi/visualOrder": { server, params, context, result throws(ResponseError) in
      let typed = try VisualOrderParams(decoding: params, defaults: server.settings)
      try result.stream(VisualOrderResult.self, context) { (entries) throws(ResponseError) in
        try server.visualOrder(typed, context, &entries)
      }
    },
    "bidi/insertMarks": { server, params, context, result throws(ResponseError) in
      let typed = try InsertMarksParams(decoding: params, defaults: server.settings)
      try result.stream(InsertMarksResult.self, context) { (edits) throws(ResponseError) in
        try server.insertMarks(typed, context) { (edit) throws(ResponseError) in try edits.append(edit) }
      }
    },
    "textDocument/codeAction": { server, params, context, result throws(ResponseError) in
      let typed = try CodeActionParams(decoding: params)
      try result.stream(CodeActionResult.self, context) { (actions) throws(ResponseError) in
        try server.codeAction(typed, context, &actions)
      }
    },
    "textDocument/hover": { server, params, context, result throws(ResponseError) in
      result.value(try server.hover(HoverParams(decoding: params), context))
    },
    "textDocument/inlayHint": { server, params, context, result throws(ResponseError) in
      let typed = try InlayHintParams(decoding: params)
      try result.stream(InlayHintResult.self, context) { (hints) throws(ResponseError) in
        try server.inlayHint(typed, &hints)
      }
    },
  ]

  static let notificationHandlers: [String: NotificationHandler] = [
    "initialized": { _, _, _ in },
    "exit": { server, _, connection in server.exit(connection) },
    "textDocument/didOpen": { server, params, connection in
      server.decoded(params, "textDocument/didOpen", connection, DidOpenParams.init) { server.didOpen($0, connection) }
    },
    "textDocument/didChange": { server, params, connection in
      server.decoded(params, "textDocument/didChange", connection, DidChangeParams.init) {
        server.didChange($0, connection)
      }
    },
    "textDocument/didClose": { server, params, connection in
      server.decoded(params, "textDocument/didClose", connection, DidCloseParams.init) {
        server.didClose($0, connection)
      }
    },
    "textDocument/didSave": { _, _, _ in },
    "workspace/didChangeConfiguration": { server, params, connection in
      server.decoded(params, "workspace/didChangeConfiguration", connection, DidChangeConfigurationParams.init) {
        server.didChangeConfiguration($0, connection)
      }
    },
  ]

  /// Runs `body` on a notification's typed params, or warns that it was
  /// ignored when they cannot be read.
  private func decoded<P>(
    _ params: JSONValue?, _ method: String, _ connection: Connection,
    _ decode: (JSONValue?) throws(ResponseError) -> P, _ body: (P) -> Void
  ) {
    do throws(ResponseError) {
      body(try decode(params))
    } catch {
      warn("\(method) ignored: \(error.message)", on: connection)
    }
  }

  /// The status to exit with once the connection has ended: the `exit`
  /// notification's, or, at the end of input, 0 after `shutdown` and 1 before.
  package func finalStatus() -> Int32 {
    exitStatus ?? (phase == .shutDown ? 0 : 1)
  }

  // MARK: MessageHandler

  package func handle(request: Request, context: RequestContext, result: inout JSONWriter) throws(ResponseError) {
    switch phase {
    case .uninitialized where request.method != "initialize":
      throw ResponseError(
        code: .serverNotInitialized, message: "the server is not initialized: send initialize first")
    case .shutDown:
      throw .invalidRequest("the server is shutting down: only exit is accepted after shutdown")
    default:
      break
    }
    guard let handler = Self.requestHandlers[request.method] else {
      throw .methodNotFound(request.method)
    }
    if context.isCancelled {
      throw .cancelled(context)
    }
    do throws(ResponseError) {
      try handler(self, request.params, context, &result)
    } catch {
      logger.debug("\(request.method) \(request.id): \(error)")
      throw error
    }
  }

  package func handle(notification: Notification, connection: Connection) {
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
    handler(self, notification.params, connection)
  }

  /// Reports a notification that could not be applied: on the log and to the
  /// client as a `window/logMessage` warning.
  func warn(_ message: String, on connection: Connection) {
    logger.warning(message)
    connection.send(notification: LogMessage.method) { writer in
      LogMessage.encodeWarning(message, to: &writer)
    }
  }
}
