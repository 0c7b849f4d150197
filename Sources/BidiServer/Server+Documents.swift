import BidiProtocol
import DocumentStore
import JSONRPC

/// `textDocument/didOpen`, `didChange`, `didClose` and `bidi/documentInfo`
/// (Protocol/specification.md, “Documents”). A notification that cannot apply changes nothing and is
/// reported with `window/logMessage`.
extension BidiLanguageServer {
  func didOpen(_ params: DidOpenParams, _ connection: Connection) {
    let uri = params.uri
    let size = params.text.stringUTF8Count ?? 0
    let token =
      size >= Self.progressThreshold && documents[uri] == nil
      ? beginProgress(
        "Opening \(uri.split(separator: "/").last ?? "document")",
        message: "\(size >> 20) MiB", on: connection)
      : nil
    do throws(DocumentError) {
      // Straight from the decoded bytes into the line tree: they are
      // well-formed UTF-8 (a Swift string, or jansson's validated buffer).
      let opened = params.text.withStringUTF8 { text in
        Result { () throws(DocumentError) in
          try documents.open(uri: uri, languageId: params.languageId, version: params.version, wellFormedUTF8: text)
        }
      }
      try opened?.get()
      logger.debug("opened \(uri) (\(size) bytes)")
      if let document = documents[uri] {
        openStructured(document)
        startHazards(for: document, isNew: true)
        hazards[uri]?.progressToken = token
      }
    } catch {
      if let token { reportProgress(token, .end(message: "failed"), on: connection) }
      warn("textDocument/didOpen ignored: \(error)", on: connection)
    }
  }

  func didChange(_ params: DidChangeParams, _ connection: Connection) {
    let uri = params.uri
    let version = params.version
    let changes = params.changes.map { ContentChange(range: $0.range, text: $0.text) }
    if changes.isEmpty {
      // Nothing to change but the version.
      do throws(DocumentError) {
        try documents.change(uri: uri, version: version, changes: [], encoding: encoding)
      } catch {
        warn("textDocument/didChange ignored: \(error)", on: connection)
      }
      return
    }
    // All or nothing, each change applied once; the line tree drops the
    // cached analyses and hazard states of exactly the lines each change
    // touched (its `LineChange`).
    do throws(DocumentError) {
      let lineChanges = try documents.change(uri: uri, version: version, changes: changes, encoding: encoding)
      structuredLinesChanged(uri: uri, lineChanges)
      hazardLinesChanged(uri: uri, lineChanges)
    } catch {
      warn("textDocument/didChange ignored: \(error)", on: connection)
    }
  }

  func didClose(_ params: DidCloseParams, _ connection: Connection) {
    let uri = params.uri
    do throws(DocumentError) {
      try documents.close(uri: uri)
      if let token = hazards[uri]?.progressToken {
        reportProgress(token, .end(message: "closed"), on: connection)
      }
      hazards[uri] = nil
      structured[uri] = nil
      // Clear the closed document's diagnostics in the client.
      connection.send(notification: PublishDiagnostics.method) { writer in
        PublishDiagnostics.encode(uri: uri, version: nil, diagnostics: [], to: &writer)
      }
    } catch {
      warn("textDocument/didClose ignored: \(error)", on: connection)
    }
  }

  func documentInfo(_ params: DocumentInfoParams) throws(ResponseError) -> DocumentInfoResult {
    let document = try openDocument(params.uri)
    return DocumentInfoResult(
      uri: document.uri, version: document.version, lineCount: document.text.lineCount,
      utf8Length: document.text.utf8Count, text: params.includeText ? document.text.text : nil)
  }

  /// A snapshot of the open document `uri`.
  func openDocument(_ uri: String) throws(ResponseError) -> Document {
    guard let document = documents[uri] else { throw .notOpen(uri) }
    return document
  }

  /// Runs `body` on the stored document `uri`, so that the analysis caches
  /// it fills are kept.
  func withOpenDocument<R>(
    _ uri: String, _ body: (inout Document) throws(ResponseError) -> R
  ) throws(ResponseError) -> R {
    do {
      return try documents.withDocument(uri) { (document) throws -> R in try body(&document) }
    } catch let error as ResponseError {
      throw error
    } catch let error as DocumentError {
      if case .unknownDocument = error { throw .notOpen(uri) }
      throw .invalidParams(error.description)
    } catch {
      throw ResponseError(code: .internalError, message: "\(error)")
    }
  }
}
