import DocumentStore
import JSONRPC

/// `textDocument/didOpen`, `didChange`, `didClose` and `bidi/documentInfo`
/// (Protocol/specification.md, “Documents”). A notification that cannot apply changes nothing and is
/// reported with `window/logMessage`.
extension BidiLanguageServer {
  func didOpen(_ params: Params, _ connection: Connection) {
    do throws(ResponseError) {
      let item = params["textDocument"]
      try item.requireObject()
      let uri = try item["uri"].string()
      let languageId = try item["languageId"].string()
      let version = try item["version"].int()
      let text = try item["text"].string()
      let size = text.utf8.count
      let token =
        size >= Self.progressThreshold && documents[uri] == nil
        ? beginProgress(
          "Opening \(uri.split(separator: "/").last ?? "document")",
          message: "\(size >> 20) MiB", on: connection)
        : nil
      do throws(DocumentError) {
        try documents.open(uri: uri, languageId: languageId, version: version, text: text)
        logger.debug("opened \(uri) (\(size) bytes)")
        if let document = documents[uri] {
          startHazards(for: document)
          hazards[uri]?.progressToken = token
        }
      } catch {
        if let token { reportProgress(token, ["kind": "end", "message": "failed"], on: connection) }
        warn("textDocument/didOpen ignored: \(error)", on: connection)
      }
    } catch {
      warn("textDocument/didOpen ignored: \(error.message)", on: connection)
    }
  }

  func didChange(_ params: Params, _ connection: Connection) {
    do throws(ResponseError) {
      let uri = try params.documentURI()
      let version = try params["textDocument"]["version"].int()
      var changes: [ContentChange] = []
      for change in try params["contentChanges"].array() {
        try change.requireObject()
        let range = try change.optional("range").map { (r) throws(ResponseError) in try r.range() }
        changes.append(ContentChange(range: range, text: try change["text"].string()))
      }
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
        hazardLinesChanged(uri: uri, lineChanges)
      } catch {
        warn("textDocument/didChange ignored: \(error)", on: connection)
      }
    } catch {
      warn("textDocument/didChange ignored: \(error.message)", on: connection)
    }
  }

  func didClose(_ params: Params, _ connection: Connection) {
    do throws(ResponseError) {
      let uri = try params.documentURI()
      do throws(DocumentError) {
        try documents.close(uri: uri)
        if let token = hazards[uri]?.progressToken {
          reportProgress(token, ["kind": "end", "message": "closed"], on: connection)
        }
        hazards[uri] = nil
        // Clear the closed document's diagnostics in the client.
        connection.send(
          notification: "textDocument/publishDiagnostics",
          params: ["uri": .string(uri), "diagnostics": []])
      } catch {
        warn("textDocument/didClose ignored: \(error)", on: connection)
      }
    } catch {
      warn("textDocument/didClose ignored: \(error.message)", on: connection)
    }
  }

  func documentInfo(_ params: Params, _ context: RequestContext) throws(ResponseError) -> JSONValue {
    let document = try openDocument(params)
    var result: JSONObject = [
      "uri": .string(document.uri),
      "version": JSONValue(document.version),
      "lineCount": JSONValue(document.text.lineCount),
      "utf8Length": JSONValue(document.text.utf8Count),
    ]
    if let include = try params.optional("includeText"), try include.bool() {
      result["text"] = .string(document.text.text)
    }
    return .object(result)
  }

  /// A snapshot of the document named by `params.textDocument.uri`.
  func openDocument(_ params: Params) throws(ResponseError) -> Document {
    let uri = try params.documentURI()
    guard let document = documents[uri] else {
      throw params["textDocument"]["uri"].error("document \(uri) is not open")
    }
    return document
  }
}
