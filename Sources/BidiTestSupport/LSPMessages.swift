import JSONRPC
import XCTest

// Builders of the LSP values tests send, and checks of what comes back.

/// `Content-Length: N\r\n\r\n` + body.
package func frame(_ body: String) -> [UInt8] {
  frame(Array(body.utf8))
}

package func frame(_ body: [UInt8]) -> [UInt8] {
  Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
}

/// An LSP Position.
package func position(_ line: Int, _ character: Int) -> JSONValue {
  ["line": JSONValue(line), "character": JSONValue(character)]
}

/// An LSP Range.
package func lspRange(_ startLine: Int, _ startCharacter: Int, _ endLine: Int, _ endCharacter: Int) -> JSONValue {
  ["start": position(startLine, startCharacter), "end": position(endLine, endCharacter)]
}

/// The range of whole line `line`, as an editor selects it.
package func lineRange(_ line: Int) -> JSONValue { lspRange(line, 0, line + 1, 0) }

/// A TextDocumentIdentifier.
package func documentID(_ uri: String) -> JSONValue { ["uri": .string(uri)] }

/// An incremental content change.
package func change(_ startLine: Int, _ startCharacter: Int, _ endLine: Int, _ endCharacter: Int, _ text: String)
  -> JSONValue
{
  ["range": lspRange(startLine, startCharacter, endLine, endCharacter), "text": .string(text)]
}

/// A full-text content change.
package func fullChange(_ text: String) -> JSONValue {
  ["text": .string(text)]
}

/// The `window/logMessage` warnings (type 2) among `messages`.
package func warnings(in messages: [JSONValue]) -> [JSONValue] {
  messages.filter { $0["method"] == "window/logMessage" && $0["params"]?["type"] == 2 }
}

/// The responses among `messages`.
package func responses(in messages: [JSONValue]) -> [JSONValue] {
  messages.filter { $0["method"] == nil }
}

/// Asserts that `response` is an error with `code` (and, when given, `id`
/// and a message containing `mentioning`).
package func assertError(
  _ response: JSONValue?, code: Int, id: JSONValue? = nil, mentioning: String? = nil,
  _ context: String = "", file: StaticString = #filePath, line: UInt = #line
) {
  guard let response else { return XCTFail("no response \(context)", file: file, line: line) }
  XCTAssertNil(response["result"], "\(context): unexpected result in \(response)", file: file, line: line)
  XCTAssertEqual(
    response["error"]?["code"], JSONValue(code), "\(context): wrong error in \(response)", file: file, line: line)
  if let id {
    XCTAssertEqual(response["id"], id, "\(context): wrong id in \(response)", file: file, line: line)
  }
  if let mentioning {
    let message = response["error"]?["message"]?.stringValue ?? ""
    XCTAssertTrue(
      message.contains(mentioning),
      "\(context): error message \"\(message)\" does not mention \"\(mentioning)\"", file: file, line: line)
  }
}

/// A message that is not what a helper expected.
package struct UnexpectedMessage: Error, CustomStringConvertible {
  package var message: JSONValue
  package var expected: String
  package init(message: JSONValue, expected: String) {
    self.message = message
    self.expected = expected
  }
  package var description: String { "expected \(expected), got \(message)" }
}

extension JSONValue {
  /// `range.start.line` of a diagnostic or TextEdit.
  package var startLine: Int { self["range"]?["start"]?["line"]?.intValue ?? -1 }
  /// `range.start.character` of a diagnostic or TextEdit.
  package var startCharacter: Int { self["range"]?["start"]?["character"]?.intValue ?? -1 }
  /// `code` of a diagnostic.
  package var diagnosticCode: String { self["code"]?.stringValue ?? "" }
}
