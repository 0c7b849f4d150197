import BidiServer
import BidiTestSupport
import JSONRPC

extension TestServer {
  /// `BidiLanguageServer` in process, over memory pipes: what the
  /// `bidi-lsp` executable runs over stdin and stdout.
  static let bidiLSP = inProcess(serve)

  /// The same with connection `options` (a smaller message size limit).
  static func bidiLSP(options: Connection.Options) -> TestServer { inProcess(options: options, serve) }

  @Sendable private static func serve(_ connection: Connection) -> Int32 {
    let server = BidiLanguageServer(logger: connection.logger)
    _ = connection.run(server)
    return server.finalStatus()
  }
}
