import DocumentStore
import JSONRPC
import UnicodeBidi

/// `initialize`, `shutdown` and `exit` (Protocol/specification.md, “Lifecycle and errors”).
extension BidiLanguageServer {
  func initialize(_ params: Params, _ context: RequestContext) throws(ResponseError) -> JSONValue {
    guard phase == .uninitialized else {
      throw .invalidRequest("initialize was already received")
    }
    try params.requireObject()
    encoding = try Self.negotiateEncoding(params)
    if let capabilities = try params.optional("capabilities"), let window = try capabilities.optional("window"),
      let progress = try window.optional("workDoneProgress")
    {
      clientSupportsProgress = try progress.bool()
    }
    if let options = try params.optional("initializationOptions"), let bidi = try options.optional("bidi") {
      // A bad setting must not keep the editor from starting: keep the
      // defaults and say why.
      do throws(ResponseError) {
        try applySettings(bidi)
      } catch {
        warn("initializationOptions.bidi ignored: \(error.message)", on: context.connection)
      }
    }
    phase = .running
    logger.info("initialized; position encoding \(encoding.rawValue)")
    let methods = Self.requestMethods.filter { $0.hasPrefix("bidi/") }.map { JSONValue.string($0) }
    let capabilities: JSONObject = [
      "positionEncoding": .string(encoding.rawValue),
      "textDocumentSync": ["openClose": true, "change": 2, "save": false],
      "hoverProvider": true,
      "inlayHintProvider": true,
      "codeActionProvider": [
        "codeActionKinds": ["quickfix", "refactor.rewrite", "source.fixAll"]
      ],
      "experimental": ["bidi": ["protocolVersion": 1, "methods": .array(methods)]],
    ]
    return [
      "capabilities": .object(capabilities),
      "serverInfo": ["name": .string(Self.name), "version": .string(Self.version)],
    ]
  }

  /// The client's first supported choice in
  /// `capabilities.general.positionEncodings`, else utf-16.
  static func negotiateEncoding(_ params: Params) throws(ResponseError) -> PositionEncoding {
    guard let capabilities = try params.optional("capabilities"),
      let general = try capabilities.optional("general"),
      let offered = try general.optional("positionEncodings")
    else { return .utf16 }
    for choice in try offered.array() {
      if let name = choice.value?.stringValue, let encoding = PositionEncoding(rawValue: name) {
        return encoding
      }
    }
    return .utf16
  }

  func shutdown(_ params: Params, _ context: RequestContext) throws(ResponseError) -> JSONValue {
    phase = .shutDown
    logger.info("shutdown")
    return .null
  }

  func exit(_ params: Params, _ connection: Connection) {
    exitStatus = phase == .shutDown ? 0 : 1
    logger.info("exit (status \(exitStatus ?? 1))")
    connection.stop()
  }

  /// Applies `initializationOptions.bidi` or `settings.bidi`.
  func applySettings(_ bidi: Params) throws(ResponseError) {
    try bidi.requireObject()
    var updated = settings
    if let value = try bidi.optional("strategy") { updated.strategy = try value.oneOf(DirectionStrategy.self) }
    if let value = try bidi.optional("fallback") { updated.fallback = try value.oneOf(DirectionFallback.self) }
    if let value = try bidi.optional("paragraphs") { updated.paragraphs = try value.oneOf(ParagraphMode.self) }
    if let value = try bidi.optional("layoutDirection") {
      updated.layoutDirection = try value.oneOf(TextDirection.self)
    }
    if let value = try bidi.optional("rtlThreshold") { updated.rtlThreshold = try Self.threshold(value) }
    if let value = try bidi.optional("diagnostics") { try applyDiagnosticSettings(value) }
    settings = updated
  }

  static func threshold(_ value: Params) throws(ResponseError) -> Double {
    let number = try value.number()
    guard number >= 0 && number <= 1 else { throw value.error("must be between 0 and 1, got \(number)") }
    return number
  }
}
