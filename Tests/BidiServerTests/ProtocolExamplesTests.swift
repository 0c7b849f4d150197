import BidiTestSupport
import Foundation
import JSONRPC
import XCTest

/// The example session in Protocol/examples (the one the README's demo
/// replays through the built binary) is replayed against the server in
/// process, the same `BidiLanguageServer` over memory pipes: every response
/// must equal the recorded transcript, and every bidi request's params and
/// result must match the published schemas. So the published examples cannot
/// drift from what the daemon does.
final class ProtocolExamplesTests: XCTestCase {
  static let examples: URL = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.appendingPathComponent("Protocol/examples")
  }()

  /// The session's messages, with `"$FILE:name"` strings replaced by the
  /// contents of that file (as editors/python/bidi_lsp_client.py does).
  func sessionMessages() throws -> [JSONValue] {
    let data = try Data(contentsOf: Self.examples.appendingPathComponent("demo-session.json"))
    guard case .array(let messages) = try JSONValue(decoding: [UInt8](data)) else {
      throw XCTSkip("demo-session.json is not an array")
    }
    func expand(_ value: JSONValue) throws -> JSONValue {
      switch value {
      case .string(let text) where text.hasPrefix("$FILE:"):
        let file = Self.examples.appendingPathComponent(String(text.dropFirst(6)))
        return .string(try String(contentsOf: file, encoding: .utf8))
      case .array(let items):
        return .array(try items.map(expand))
      case .object(let object):
        var result = JSONObject()
        for (key, member) in object { result[key] = try expand(member) }
        return .object(result)
      default:
        return value
      }
    }
    return try messages.map(expand)
  }

  func testDemoSessionMatchesItsTranscriptAndTheSchemas() throws {
    let messages = try sessionMessages()
    let transcriptData = try Data(contentsOf: Self.examples.appendingPathComponent("demo-session.responses.json"))
    let transcript = try XCTUnwrap(try JSONValue(decoding: [UInt8](transcriptData)).objectValue)
    let schemas = try JSONSchemaValidator.protocolSchemas()
    let client = try TestServer.bidiLSP.client()
    defer { client.terminate() }
    var requests = 0
    var validated = 0
    for message in messages {
      try client.send(message)
      guard let id = message["id"], let method = message["method"]?.stringValue else { continue }
      let requestID = try XCTUnwrap(RequestID(json: id))
      let response = try client.waitForResponse(id: requestID, timeout: 30)
      requests += 1
      XCTAssertEqual(
        response, transcript[requestID.description.trimmingCharacters(in: CharacterSet(charactersIn: "\""))],
        "response to \(method) (id \(requestID)) differs from demo-session.responses.json")
      if method.hasPrefix("bidi/") {
        let schema = method.replacingOccurrences(of: "/", with: "-") + ".schema.json"
        XCTAssertEqual(schemas.validate(message["params"] ?? .null, against: schema + "#/$defs/params"), [], method)
        XCTAssertEqual(schemas.validate(response["result"] ?? .null, against: schema + "#/$defs/result"), [], method)
        validated += 1
      }
    }
    XCTAssertEqual(requests, transcript.count, "every recorded response has its request")
    XCTAssertEqual(validated, 11)
    XCTAssertEqual(client.exitStatus(timeout: 30), 0)
  }
}
