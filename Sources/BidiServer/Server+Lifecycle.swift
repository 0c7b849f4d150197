import BidiProtocol
import DocumentStore
import JSONRPC
import StructuredText
import UnicodeBidi

/// `initialize`, `shutdown` and `exit` (specification, "Lifecycle").
extension BidiLanguageServer {
  /// Called only before `initialize` has been answered.
  func initialize(_ params: InitializeParams, _ context: RequestContext) -> InitializeResult {
    // The client's first supported choice, else utf-16.
    encoding = params.positionEncodings?.lazy.compactMap(PositionEncoding.init(rawValue:)).first ?? .utf16
    clientSupportsProgress = params.supportsProgress
    switch params.settings {
    case .success(let change):
      apply(change, "initializationOptions.bidi", on: context.connection)
    case .failure(let error):
      // A bad setting must not keep the editor from starting: keep the
      // defaults and say why.
      warn("initializationOptions.bidi ignored: \(error.message)", on: context.connection)
    case nil:
      break
    }
    phase = .running
    logger.info("initialized; position encoding \(encoding.rawValue)")
    return InitializeResult(
      positionEncoding: encoding.rawValue, bidiMethods: Self.requestMethods.filter { $0.hasPrefix("bidi/") },
      serverName: Self.name, serverVersion: Self.version)
  }

  func shutdown() {
    phase = .shutDown
    logger.info("shutdown")
  }

  func exit(_ connection: Connection) {
    exitStatus = phase == .shutDown ? 0 : 1
    logger.info("exit (status \(exitStatus ?? 1))")
    connection.stop()
  }

  /// Applies `initializationOptions.bidi` or `settings.bidi` (read whole
  /// before anything applies: a bad field changes nothing, and `what` is
  /// said to be ignored).
  func apply(_ change: SettingsChange, _ what: String, on connection: Connection) {
    if let tag = change.sourceLocale, !tag.isEmpty, LocaleTag(tag) == nil {
      warn(
        "\(what) ignored: sourceLocale: unknown source locale '\(tag)' (use a tag such as en, en-US, fr, or \"\")",
        on: connection)
      return
    }
    settings = change.applied(to: settings)
    applyRuleSettings(change)
  }

  /// `workspace/didChangeConfiguration`: `settings.bidi` as in
  /// `initializationOptions.bidi`.
  func didChangeConfiguration(_ params: DidChangeConfigurationParams, _ connection: Connection) {
    guard let change = params.bidi else { return }
    apply(change, "workspace/didChangeConfiguration", on: connection)
  }
}
