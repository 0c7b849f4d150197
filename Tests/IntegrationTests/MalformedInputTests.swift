import BidiTestSupport
import JSONRPC
import XCTest

/// Bad input (specification, “Transport”, “Lifecycle and errors”, “Documents”): a battery of distinct malformed inputs
/// (framing, JSON, JSON-RPC, parameters), after each of which the daemon
/// must give the answer the specification names, still answer a valid
/// request correctly, and keep every open document exactly as it was.
final class MalformedInputTests: XCTestCase {
  /// What one input must produce before the next valid request's answer.
  enum Expectation {
    /// One or more error answers, each with one of `codes` and one of `ids`.
    case errors(Set<Int>, ids: Set<JSONValue> = [.null])
    /// Exactly one error answer.
    case error(Int, id: JSONValue, mentioning: String? = nil)
    /// Exactly one `window/logMessage` warning, no answer.
    case warning
    /// Nothing at all.
    case nothing
    /// Exactly one successful answer to request `id`.
    case result(id: JSONValue)
    /// Nothing at all, and the document `uri` is changed by `edit` (valid input).
    case applies(uri: String, version: Int, edit: @Sendable (String) -> String)
  }

  struct Input {
    let name: String
    let bytes: [UInt8]
    let expectation: Expectation
    /// False for unusual but valid inputs, which are checked the same way
    /// but not counted as malformed.
    let isMalformed: Bool
  }

  static let uriA = "file:///battery/a.txt"
  static let uriB = "file:///battery/b.txt"
  /// Never opened: every input must leave it unknown.
  static let uriNew = "file:///battery/new.txt"
  static let textA = "مرحبا بالعالم\r\nworld 😀 עולם\rשלום\n"
  static let textB = "line one\nline two 𝒜"
  static let maximumMessageSize = 65_536

  // MARK: The battery

  func testEachMalformedInputIsAnsweredAndLeavesDocumentsIntact() throws {
    let inputs = Self.framingInputs() + Self.jsonInputs() + Self.messageInputs() + Self.parameterInputs()
    let malformed = inputs.filter(\.isMalformed)
    XCTAssertGreaterThanOrEqual(malformed.count, 100, "malformed inputs in the battery")
    XCTAssertEqual(Set(inputs.map(\.bytes)).count, inputs.count, "inputs must be distinct")
    XCTAssertEqual(Set(inputs.map(\.name)).count, inputs.count, "names must be distinct")

    let daemon = try Daemon.initialized(arguments: ["--max-message-size", "\(Self.maximumMessageSize)"])
    var shadows: [String: (text: String, version: Int)] = [
      Self.uriA: (Self.textA, 1), Self.uriB: (Self.textB, 1),
    ]
    try daemon.open(Self.uriA, Self.textA, version: 1)
    try daemon.open(Self.uriB, Self.textB, version: 1)
    XCTAssertEqual(try daemon.barrier(), [])

    var checked = 0
    for input in inputs {
      try daemon.sendRaw(input.bytes)
      if case .applies(let uri, let version, let edit) = input.expectation, let old = shadows[uri] {
        shadows[uri] = (edit(old.text), version)
      }
      let problems: [String]
      do {
        problems = try probe(daemon, after: input, shadows: shadows)
      } catch {
        XCTFail(
          "\(input.name): the daemon stopped serving: \(error)\nstderr: \(daemon.client.standardError().suffix(2000))")
        return
      }
      for problem in problems { XCTFail("\(input.name): \(problem)") }
      checked += 1
    }
    XCTAssertEqual(checked, inputs.count)
    XCTAssertEqual(try daemon.shutdownAndExit(), 0)
    print("MalformedInputTests: \(malformed.count) distinct malformed inputs, \(inputs.count) in all")
  }

  /// Checks the messages `input` caused, then that every document is intact.
  private func probe(_ daemon: Daemon, after input: Input, shadows: [String: (text: String, version: Int)]) throws
    -> [String]
  {
    var problems: [String] = []
    let uris = shadows.keys.sorted()
    var infos: [String: JSONValue] = [:]
    for (index, uri) in uris.enumerated() {
      infos[uri] = try daemon.infoResponse(uri)
      if index == 0 { problems += unmet(input.expectation, by: daemon.client.reader.takePending()) }
    }
    for uri in uris {
      guard let expected = shadows[uri], let result = infos[uri]?["result"] else {
        problems.append("\(uri): no documentInfo result: \(infos[uri] ?? nil)")
        continue
      }
      if result["text"]?.stringValue != expected.text {
        problems.append("\(uri): text is \(result["text"] ?? nil), expected \(JSONValue.string(expected.text))")
      }
      if result["version"] != JSONValue(expected.version) {
        problems.append("\(uri): version is \(result["version"] ?? nil), expected \(expected.version)")
      }
      let shadow = TestText(expected.text)
      if result["lineCount"] != JSONValue(shadow.lineCount) || result["utf8Length"] != JSONValue(shadow.utf8Length) {
        problems.append("\(uri): lineCount/utf8Length wrong: \(result)")
      }
    }
    let unopened = try daemon.infoResponse(Self.uriNew)
    if unopened["error"]?["code"] != -32602 { problems.append("\(Self.uriNew) was opened: \(unopened)") }
    let late = daemon.client.reader.takePending()
    if !late.isEmpty { problems.append("unexpected messages while probing: \(late)") }
    return problems
  }

  /// What is wrong with `messages` as the effect of an input.
  private func unmet(_ expectation: Expectation, by messages: [JSONValue]) -> [String] {
    let shown = "\(messages)"
    func single() -> JSONValue? { messages.count == 1 ? messages[0] : nil }
    switch expectation {
    case .errors(let codes, let ids):
      guard !messages.isEmpty else { return ["expected an error answer, got nothing"] }
      for message in messages {
        guard let code = message["error"]?["code"]?.intValue, codes.contains(code),
          let id = message["id"], ids.contains(id), message["method"] == nil
        else { return ["expected errors \(codes.sorted()) with ids \(ids), got \(shown)"] }
      }
      return []
    case .error(let code, let id, let mentioning):
      guard let message = single(), message["error"]?["code"] == JSONValue(code), message["id"] == id else {
        return ["expected one error \(code) with id \(id), got \(shown)"]
      }
      if let mentioning, !(message["error"]?["message"]?.stringValue ?? "").contains(mentioning) {
        return ["the error message does not mention \"\(mentioning)\": \(shown)"]
      }
      return []
    case .warning:
      guard let message = single(), message["method"] == "window/logMessage", message["params"]?["type"] == 2 else {
        return ["expected one window/logMessage warning, got \(shown)"]
      }
      return []
    case .nothing, .applies:
      return messages.isEmpty ? [] : ["expected no message, got \(shown)"]
    case .result(let id):
      guard let message = single(), message["id"] == id, message["result"] != nil else {
        return ["expected a result for \(id), got \(shown)"]
      }
      return []
    }
  }

  // MARK: Framing

  static func framingInputs() -> [Input] {
    var inputs: [Input] = []
    func add(_ name: String, _ bytes: [UInt8], _ expectation: Expectation = .errors([-32700]), malformed: Bool = true) {
      inputs.append(Input(name: "framing: \(name)", bytes: bytes, expectation: expectation, isMalformed: malformed))
    }
    func add(_ name: String, _ text: String, _ expectation: Expectation = .errors([-32700])) {
      add(name, Array(text.utf8), expectation)
    }
    /// Blank lines: harmless whether a broken header's body is skipped or not.
    func blank(_ count: Int) -> String { String(repeating: "\n", count: count) }

    add("only Content-Type", "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n")
    add("only an unknown header", "X-Foo: bar\r\n\r\n")
    add("misspelt Content-Length", "Content-Lenght: 10\r\n\r\n" + blank(10))
    add("Content-Length name with a suffix", "Content-Length-X: 2\r\n\r\n" + blank(2))
    for value in ["-5", "-0", "-99999999999999999999", " -1"] {
      add("negative Content-Length \(value)", "Content-Length: \(value)\r\n\r\n")
    }
    for value in ["abc", "", "   ", "12abc", "0x10", "1e3", "+5", "5.0", "١٢", "1 2", "five", "5;", "\"5\"", "٥"] {
      add("non-numeric Content-Length '\(value)'", "Content-Length: \(value)\r\n\r\n")
    }
    for value in [
      "99999999999999999999", "18446744073709551616", "9223372036854775808", String(repeating: "9", count: 400),
    ] {
      add("overflowing Content-Length \(value.prefix(24))", "Content-Length: \(value)\r\n\r\n")
    }
    add("conflicting Content-Length", "Content-Length: 5\r\nContent-Length: 6\r\n\r\n" + blank(6))
    add("conflicting Content-Length, other case", "content-length: 7\r\nCONTENT-LENGTH: 3\r\n\r\n" + blank(7))
    add("header without colon", "Content-Length 5\r\n\r\n" + blank(5))
    add("garbage line", "Garbage\r\n\r\n")
    add("line without colon after Content-Length", "Content-Length: 4\r\nNoColonHere\r\n\r\n" + blank(4))
    add("empty header name", ": value\r\n\r\n")
    add("space in header name", "Content Length: 5\r\n\r\n" + blank(5))
    add("space before colon", "Content-Length : 5\r\n\r\n" + blank(5))
    add("non-ASCII header name", "Cöntent-Length: 5\r\n\r\n" + blank(5))
    add("folded header line", " Content-Length: 5\r\n\r\n" + blank(5))
    add("CR inside the Content-Length value", "Content-Length: 5\r5\r\n\r\n" + blank(55))
    add("header line over 64 KiB", "X-Long: " + String(repeating: "a", count: 70_000) + "\r\n\r\n")
    add("Content-Length value over 64 KiB", "Content-Length: " + String(repeating: "0", count: 70_000) + "\r\n\r\n")
    add("header section over 64 KiB", String(repeating: "X-A: b\r\n", count: 10_000) + "\r\n")
    add("CR CR in a header section", "\r\r\r\r\n\r\n")
    add("garbage before a header", "garbage\r\n\r\n")
    add("binary garbage", [0xFF, 0xFE, 0x00, 0x01] + Array("\r\n\r\n".utf8))
    add("NUL bytes", [0, 0, 0] + Array("\r\n\r\n".utf8))
    add("HTTP request", "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
    // Issue 10, finding 1: the blank line without its LF (the change must not apply).
    let lostChange =
      #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///battery/a.txt","version":60},"contentChanges":[{"text":"lost"}]}}"#
    add("blank line without its LF", "Content-Length: \(lostChange.utf8.count)\r\n\r\(lostChange)")
    add("blank line with a space", "Content-Length: 2\r\n \r\n{}")
    // Issue 10, finding 2: an absurd length (the daemon must keep answering).
    add(
      "Content-Length 10^15", "Content-Length: 1000000000000000\r\n\r\n",
      .error(-32600, id: .null, mentioning: "\(maximumMessageSize)"))
    // A JSON message without a header: it must not run (it would shut down).
    add("JSON without a header", #"{"jsonrpc":"2.0","id":1000,"method":"shutdown"}"# + "\r\n\r\n")

    // Bodies.
    let request =
      #"{"jsonrpc":"2.0","id":1001,"method":"bidi/documentInfo","params":{"textDocument":{"uri":"file:///battery/a.txt"}}}"#
    add("empty body", "Content-Length: 0\r\n\r\n")
    add("Content-Length shorter than the body", "Content-Length: 10\r\n\r\n" + request + "\r\n\r\n")
    add(
      "Content-Length shorter, leaving valid JSON", "Content-Length: 1\r\n\r\n42}\r\n\r\n", .errors([-32600, -32700]))
    let notification = #"{"jsonrpc":"2.0","method":"initialized","params":{}}"#
    let eaten = "Content-Length: 2\r\n\r\n{}"
    add(
      "Content-Length longer than the body",
      "Content-Length: \(notification.utf8.count + eaten.utf8.count)\r\n\r\n" + notification + eaten)
    let eatenHeader = "Content-Length: 80\r\n"
    add(
      "Content-Length longer, eating the next header",
      "Content-Length: \(request.utf8.count + eatenHeader.utf8.count)\r\n\r\n" + request + eatenHeader)

    // Over the size limit: refused, body skipped (the request must not run).
    let padded = Array(#"{"jsonrpc":"2.0","id":1002,"method":"shutdown"}"#.utf8)
    let oversized = padded + [UInt8](repeating: UInt8(ascii: " "), count: maximumMessageSize + 1 - padded.count)
    add("request over the size limit", frame(oversized), .error(-32600, id: .null, mentioning: "\(maximumMessageSize)"))
    add(
      "garbage over the size limit", frame([UInt8](repeating: UInt8(ascii: "x"), count: 100_000)),
      .error(-32600, id: .null, mentioning: "\(maximumMessageSize)"))

    // Valid variants (not counted as malformed).
    func info(_ id: Int) -> String {
      #"{"jsonrpc":"2.0","id":\#(id),"method":"bidi/documentInfo","params":{"textDocument":{"uri":"file:///battery/b.txt"}}}"#
    }
    let variants: [(String, (String) -> String)] = [
      ("bare LF header lines", { "Content-Length: \($0.utf8.count)\n\n" + $0 }),
      ("CRLF then bare LF", { "Content-Length: \($0.utf8.count)\r\n\n" + $0 }),
      ("Content-Type then Content-Length, bare LF", { "Content-Type: x\nContent-Length: \($0.utf8.count)\n\n" + $0 }),
      ("lowercase header name", { "content-length: \($0.utf8.count)\r\n\r\n" + $0 }),
      ("uppercase header name", { "CONTENT-LENGTH: \($0.utf8.count)\r\n\r\n" + $0 }),
      ("spaces around the value", { "Content-Length:    \($0.utf8.count)   \r\n\r\n" + $0 }),
      ("tab before the value", { "Content-Length:\t\($0.utf8.count)\r\n\r\n" + $0 }),
      (
        "Content-Type after Content-Length",
        { "Content-Length: \($0.utf8.count)\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + $0 }
      ),
      ("unknown extra header", { "X-Trace: 1\r\nContent-Length: \($0.utf8.count)\r\n\r\n" + $0 }),
      ("blank lines before the header", { "\r\n\r\nContent-Length: \($0.utf8.count)\r\n\r\n" + $0 }),
      ("leading zeros in the value", { "Content-Length: 000\($0.utf8.count)\r\n\r\n" + $0 }),
    ]
    for (offset, (name, build)) in variants.enumerated() {
      let id = 1100 + offset
      add(name, Array(build(info(id)).utf8), .result(id: JSONValue(id)), malformed: false)
    }
    return inputs
  }

  // MARK: JSON

  static func jsonInputs() -> [Input] {
    var inputs: [Input] = []
    func add(_ name: String, _ body: [UInt8], _ expectation: Expectation = .errors([-32700]), malformed: Bool = true) {
      inputs.append(Input(name: "JSON: \(name)", bytes: frame(body), expectation: expectation, isMalformed: malformed))
    }
    func add(_ name: String, _ body: String, _ expectation: Expectation = .errors([-32700])) {
      add(name, Array(body.utf8), expectation)
    }
    let truncated = [
      #"{"jsonrpc":"2.0","id":1200,"method":"bidi/documentInfo""#, "{", "[", #""abc"#, #"{"a":"#, "tru", "nul", "-",
      #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///battery/a.txt","version":9},"contentChanges":[{"text":"trunc"#,
    ]
    for (index, body) in truncated.enumerated() { add("truncated #\(index) \(body.prefix(16))", body) }
    let invalid = [
      "{'a':1}", "{a:1}", "[1,]", #"{"a":1,}"#, "NaN", "Infinity", "01", "1.", ".5", "True", "undefined",
      #"{"a" 1}"#, "[1 2]", #""\x41""#, #""\u12""#, #""\uZZZZ""#, "\"tab\there\"", "\"line\nbreak\"", "/* c */ {}",
      #"{"a":1}//"#, #"{"a":1}}"#, "{}{}", "42 43", #"{"jsonrpc":"2.0","method":"initialized"} x"#, "[1]]", "   ",
      #"{"a":--1}"#, "+1", "0x10", #"{"a":.}"#, "\u{FEFF}{\"jsonrpc\":\"2.0\",\"method\":\"initialized\"}",
      "\"a\u{1}b\"",
    ]
    for body in invalid { add("invalid \(body.debugDescription.prefix(30))", body) }
    add("raw NUL inside a string", Array(#""a"#.utf8) + [0] + Array(#"b""#.utf8))
    add("raw NUL after a value", Array("{}".utf8) + [0])

    // Invalid UTF-8 in a change's text: the change must not apply.
    let sequences: [(String, [UInt8])] = [
      ("FF", [0xFF]), ("overlong /", [0xC0, 0xAF]), ("encoded surrogate", [0xED, 0xA0, 0x80]),
      ("beyond U+10FFFF", [0xF4, 0x90, 0x80, 0x80]), ("cut sequence", [0xE2, 0x82]), ("lone continuation", [0x80]),
      ("five-byte form", [0xF8, 0x88, 0x80, 0x80, 0x80]),
    ]
    for (name, bytes) in sequences {
      let before =
        #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///battery/a.txt","version":50},"contentChanges":[{"text":"x"#
      add("invalid UTF-8 (\(name)) in a change", Array(before.utf8) + bytes + Array(#"y"}]}}"#.utf8))
    }
    add(
      "invalid UTF-8 in a uri",
      Array(
        #"{"jsonrpc":"2.0","id":1201,"method":"bidi/documentInfo","params":{"textDocument":{"uri":"file:///battery/a.txt"#
          .utf8)
        + [0xFE] + Array(#""}}}"#.utf8))
    add(
      "invalid UTF-8 in a key",
      Array(#"{"jsonrpc":"2.0","id":1202,"me"#.utf8) + [0xFF] + Array(#"thod":"shutdown"}"#.utf8))

    // Lone surrogates (valid JSON that jansson cannot represent).
    for escape in [#"\ud800"#, #"\udc00"#, #"\ud800\u0041"#, #"\udbff"#, #"\udc00\ud800"#, #"\ud800\ud800"#] {
      add(
        "lone surrogate \(escape) in a change",
        #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///battery/b.txt","version":51},"contentChanges":[{"text":"a\#(escape)b"}]}}"#
      )
    }
    add(
      "lone surrogate in a uri",
      #"{"jsonrpc":"2.0","id":1203,"method":"bidi/documentInfo","params":{"textDocument":{"uri":"file:///battery/a.txt\ud800"}}}"#
    )

    // Deep nesting.
    add("arrays nested 3000 deep", String(repeating: "[", count: 3000) + String(repeating: "]", count: 3000))
    add("arrays nested 60000 deep, unclosed", String(repeating: "[", count: 60_000))
    add(
      "objects nested 5000 deep", String(repeating: #"{"a":"#, count: 5000) + "1" + String(repeating: "}", count: 5000))
    add(
      "deep params of a change",
      #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///battery/a.txt","version":52},"contentChanges":"#
        + String(repeating: "[", count: 4000) + String(repeating: "]", count: 4000) + "}}")

    // Numbers beyond 64 bits.
    add("id beyond 64 bits", #"{"jsonrpc":"2.0","id":99999999999999999999,"method":"shutdown"}"#)
    add("negative id beyond 64 bits", #"{"jsonrpc":"2.0","id":-99999999999999999999,"method":"shutdown"}"#)
    add(
      "version beyond 64 bits",
      #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///battery/a.txt","version":9223372036854775808},"contentChanges":[{"text":"lost"}]}}"#
    )
    add(
      "line beyond 64 bits",
      #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///battery/a.txt","version":53},"contentChanges":[{"range":{"start":{"line":-9223372036854775809,"character":0},"end":{"line":0,"character":0}},"text":"lost"}]}}"#
    )
    add(
      "real number overflow",
      #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///battery/a.txt","version":54},"contentChanges":[{"range":{"start":{"line":0,"character":1e400},"end":{"line":0,"character":0}},"text":"lost"}]}}"#
    )

    // NUL escapes are valid: U+0000 is text.
    inputs.append(
      Input(
        name: "JSON: escaped NUL inserted into a document",
        bytes: frame(
          #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///battery/b.txt","version":2},"contentChanges":[{"range":{"start":{"line":0,"character":4},"end":{"line":0,"character":4}},"text":"\u0000|\u0000"}]}}"#
        ),
        expectation: .applies(uri: uriB, version: 2, edit: { "line\u{0}|\u{0}" + $0.dropFirst(4) }),
        isMalformed: false))
    add(
      "escaped NUL in a uri: no such document",
      #"{"jsonrpc":"2.0","id":1204,"method":"bidi/documentInfo","params":{"textDocument":{"uri":"file:///battery/a.txt\u0000"}}}"#,
      .error(-32602, id: 1204, mentioning: "uri"))
    add(
      "escaped NUL in a method name",
      #"{"jsonrpc":"2.0","id":1205,"method":"bidi/documentInfo\u0000","params":{"textDocument":{"uri":"file:///battery/a.txt"}}}"#,
      .error(-32601, id: 1205))
    return inputs
  }

  // MARK: JSON-RPC messages

  static func messageInputs() -> [Input] {
    var inputs: [Input] = []
    func add(_ name: String, _ body: String, _ expectation: Expectation = .errors([-32600])) {
      inputs.append(Input(name: "message: \(name)", bytes: frame(body), expectation: expectation, isMalformed: true))
    }
    let documentParams = #"{"textDocument":{"uri":"file:///battery/a.txt"},"includeText":true}"#
    let destroy =
      #"{"textDocument":{"uri":"file:///battery/a.txt","version":60},"contentChanges":[{"text":"destroyed"}]}"#
    for body in ["42", #""text""#, "null", "true", "false", "1.5", "-7", "[]", "[1,2]"] {
      add("not an object: \(body)", body)
    }
    add("batch with shutdown", #"[{"jsonrpc":"2.0","id":1300,"method":"shutdown"}]"#)
    add("batch with a change", #"[{"jsonrpc":"2.0","method":"textDocument/didChange","params":\#(destroy)}]"#)
    add("empty object", "{}")
    add("only jsonrpc", #"{"jsonrpc":"2.0"}"#)
    for id in ["null", "true", "false", "1.5", "1e2", "-0.0", "{}", #"{"a":1}"#, "[]", "[1]"] {
      add(
        "documentInfo with id \(id)",
        #"{"jsonrpc":"2.0","id":\#(id),"method":"bidi/documentInfo","params":\#(documentParams)}"#)
    }
    for id in ["null", "true", "2.5", "{}"] {
      add("shutdown with id \(id)", #"{"jsonrpc":"2.0","id":\#(id),"method":"shutdown"}"#)
    }
    add("initialize with id null", #"{"jsonrpc":"2.0","id":null,"method":"initialize","params":{"capabilities":{}}}"#)
    add(
      "didChange with id true", #"{"jsonrpc":"2.0","id":true,"method":"textDocument/didChange","params":\#(destroy)}"#)
    let withID: Set<JSONValue> = [.null, 1301]
    for method in ["42", "null", "true", "[]", "{}", #"["bidi/documentInfo"]"#] {
      add(
        "method \(method)", #"{"jsonrpc":"2.0","id":1301,"method":\#(method),"params":\#(documentParams)}"#,
        .errors([-32600], ids: withID))
    }
    add("notification method 42", #"{"jsonrpc":"2.0","method":42,"params":\#(destroy)}"#)
    add("id without method", #"{"jsonrpc":"2.0","id":1301}"#, .errors([-32600], ids: withID))
    add(
      "params 42", #"{"jsonrpc":"2.0","id":1301,"method":"bidi/documentInfo","params":42}"#,
      .errors([-32600], ids: withID))
    add(
      "params string", #"{"jsonrpc":"2.0","id":1301,"method":"bidi/documentInfo","params":"a.txt"}"#,
      .errors([-32600], ids: withID))
    add(
      "params true", #"{"jsonrpc":"2.0","id":1301,"method":"bidi/documentInfo","params":true}"#,
      .errors([-32600], ids: withID))
    add("notification params string", #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":"destroy"}"#)
    add("empty method name", #"{"jsonrpc":"2.0","id":1302,"method":"","params":{}}"#, .error(-32601, id: 1302))
    add(
      "method in upper case", #"{"jsonrpc":"2.0","id":1303,"method":"BIDI/DOCUMENTINFO","params":\#(documentParams)}"#,
      .error(-32601, id: 1303))
    add(
      "unknown request with junk params", #"{"jsonrpc":"2.0","id":1304,"method":"foo/bar","params":[1,{"x":null}]}"#,
      .error(-32601, id: 1304))
    add(
      "didOpen sent as a request",
      #"{"jsonrpc":"2.0","id":1305,"method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///battery/new.txt","languageId":"plaintext","version":1,"text":"x"}}}"#,
      .error(-32601, id: 1305))
    add("shutdown sent as a notification", #"{"jsonrpc":"2.0","method":"shutdown"}"#, .nothing)
    add(
      "initialize sent as a notification", #"{"jsonrpc":"2.0","method":"initialize","params":{"capabilities":{}}}"#,
      .nothing)
    add(
      "documentInfo sent as a notification",
      #"{"jsonrpc":"2.0","method":"bidi/documentInfo","params":\#(documentParams)}"#,
      .nothing)
    add("a response from the client", #"{"jsonrpc":"2.0","id":1306,"result":null}"#, .nothing)
    add(
      "an error response from the client", #"{"jsonrpc":"2.0","id":1307,"error":{"code":-1,"message":"no"}}"#, .nothing)
    add(
      "second initialize",
      #"{"jsonrpc":"2.0","id":1308,"method":"initialize","params":{"capabilities":{"general":{"positionEncodings":["utf-8"]}}}}"#,
      .error(-32600, id: 1308))
    add(
      "second initialize with array params", #"{"jsonrpc":"2.0","id":1309,"method":"initialize","params":[]}"#,
      .error(-32600, id: 1309))
    return inputs
  }

  // MARK: Initialize with mistyped params, on an uninitialized daemon

  func testMistypedInitializeIsInvalidParamsAndLeavesServerUninitialized() throws {
    let daemon = try Daemon()
    let cases: [(String?, String)] = [
      (nil, "params"),
      ("[]", "params"),
      (#"{"capabilities":42}"#, "capabilities"),
      (#"{"capabilities":{"general":"x"}}"#, "general"),
      (#"{"capabilities":{"general":{"positionEncodings":"utf-8"}}}"#, "positionEncodings"),
      (#"{"capabilities":{"general":{"positionEncodings":{"utf-8":true}}}}"#, "positionEncodings"),
    ]
    for (index, (params, field)) in cases.enumerated() {
      let id = 1500 + index
      let member = params.map { #","params":\#($0)"# } ?? ""
      try daemon.sendFramed(#"{"jsonrpc":"2.0","id":\#(id),"method":"initialize"\#(member)}"#)
      let answer = try daemon.client.waitForResponse(id: .integer(Int64(id)), timeout: 20)
      assertError(answer, code: -32602, id: JSONValue(id), mentioning: field, params ?? "no params")
      // Still not initialized.
      assertError(try daemon.infoResponse(Self.uriA), code: -32002, "after \(params ?? "no params")")
    }
    let response = try daemon.initialize(encodings: ["utf-32"])
    XCTAssertEqual(response["result"]?["capabilities"]?["positionEncoding"], "utf-32", "\(response)")
  }

  // MARK: End of input inside a message

  func testTruncatedBodyAtEndOfInputExitsWithStatus1() throws {
    let daemon = try Daemon.initialized()
    try daemon.sendRaw(Array("Content-Length: 100\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":9,".utf8))
    daemon.client.closeInput()
    XCTAssertEqual(daemon.client.exitStatus(timeout: 20), 1)
    let log = daemon.client.standardError()
    XCTAssertTrue(log.contains("100"), "the cut message is logged: \(log)")
  }

  func testTruncatedBodyAtEndOfInputAfterShutdownExitsWithStatus0() throws {
    let daemon = try Daemon.initialized()
    XCTAssertEqual(try daemon.request("shutdown")["result"], .null)
    try daemon.sendRaw(Array("Content-Length: 100\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"exit\"".utf8))
    daemon.client.closeInput()
    XCTAssertEqual(daemon.client.exitStatus(timeout: 20), 0)
  }

  func testTruncatedHeaderAtEndOfInputExitsWithStatus1() throws {
    let daemon = try Daemon.initialized()
    try daemon.sendRaw(Array("Content-Len".utf8))
    daemon.client.closeInput()
    XCTAssertEqual(daemon.client.exitStatus(timeout: 20), 1)
  }

  func testBrokenHeaderThenValidMessageIsServed() throws {
    // Specification: after a broken header the daemon resynchronises at
    // the next Content-Length name, then serves the next message.
    let daemon = try Daemon.initialized()
    try daemon.open(Self.uriA, Self.textA)
    try daemon.sendRaw(Array("Content-Length: x\r\nX-Junk: 1\r\n\r\n".utf8))
    let messages = try daemon.barrier()
    XCTAssertEqual(responses(in: messages).map { $0["error"]?["code"] }, [-32700], "\(messages)")
    XCTAssertEqual(try daemon.text(Self.uriA), Self.textA)
  }

  // MARK: Resynchronisation

  /// specification, “Transport”, resynchronisation: a broken header's
  /// `Content-Length` is never used to skip bytes, so a message framed
  /// right after the broken header is served.
  func testBrokenHeaderWithReadableContentLengthSkipsNothing() throws {
    let daemon = try Daemon.initialized()
    let request =
      #"{"jsonrpc":"2.0","id":4242,"method":"bidi/documentInfo","params":{"textDocument":{"uri":"file:///x"}}}"#
    let inner = "Content-Length: \(request.utf8.count)\r\n\r\n\(request)"
    try daemon.sendRaw(Array("Content-Length: \(inner.utf8.count)\r\nBad Header Line\r\n\r\n\(inner)".utf8))
    let messages = try daemon.barrier()
    XCTAssertEqual(responses(in: messages).map { $0["error"]?["code"] }, [-32700, -32602], "\(messages)")
    XCTAssertEqual(messages.last?["id"], 4242, "\(messages)")
  }

  /// specification, “Transport”, framing: a repeated `Content-Length` must repeat the
  /// same value; conflicting values are a framing error, and the later
  /// header starts the section anew.
  func testRepeatedContentLengthMustAgree() throws {
    let daemon = try Daemon.initialized()
    let body =
      #"{"jsonrpc":"2.0","id":4243,"method":"bidi/documentInfo","params":{"textDocument":{"uri":"file:///x"}}}"#
    try daemon.sendRaw(
      Array("Content-Length: \(body.utf8.count)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8))
    var messages = try daemon.barrier()
    // Served: -32602 for the unknown document.
    XCTAssertEqual(responses(in: messages).map { $0["error"]?["code"] }, [-32602], "\(messages)")
    try daemon.sendRaw(
      Array("Content-Length: \(body.utf8.count + 1)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8))
    messages = try daemon.barrier()
    XCTAssertEqual(responses(in: messages).map { $0["error"]?["code"] }, [-32700, -32602], "\(messages)")
  }

  /// specification, “Transport”: `"jsonrpc": "2.0"` is required, as JSON-RPC 2.0
  /// says; without it a request is answered -32600 with its id, and a
  /// notification is dropped.
  func testMessageWithoutJsonrpcFieldIsInvalidRequest() throws {
    let daemon = try Daemon.initialized()
    try daemon.sendFramed(
      #"{"method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.txt","languageId":"plaintext","version":1,"text":"hand-written"}}}"#
    )
    try daemon.sendFramed(
      #"{"id":4244,"method":"bidi/documentInfo","params":{"textDocument":{"uri":"file:///a.txt"},"includeText":true}}"#)
    let answer = try daemon.client.waitForResponse(id: 4244, timeout: 20)
    XCTAssertEqual(answer["jsonrpc"], "2.0", "responses always carry jsonrpc")
    XCTAssertEqual(answer["error"]?["code"], -32600, "\(answer)")
    XCTAssertEqual(
      try daemon.infoResponse("file:///a.txt")["error"]?["code"], -32602, "the didOpen without jsonrpc was dropped")
  }
}
