import BidiTestSupport
import JSONRPC
import XCTest

// Helpers of the bidi request tests (contract §4): a session with the built
// daemon that validates every params object it sends and every result it
// receives against Protocol/schemas, and a naive model of a document's text.

/// What went wrong in a session, beyond what XCTest already reported.
struct BidiSessionError: Error, CustomStringConvertible {
  var description: String
}

/// A daemon started for one test, initialized, with helpers for documents
/// and the bidi requests.
final class BidiSession {
  /// The default document.
  static let uri = "file:///bidi-requests.txt"

  private static let loadedSchemas = Result { () throws(JSONSchemaValidator.LoadError) in
    try JSONSchemaValidator.protocolSchemas()
  }

  let client: TestClient
  /// The negotiated position encoding.
  let encoding: String
  /// How many requests had their params and result validated.
  private(set) var validatedCalls = 0
  private var versions: [String: Int] = [:]

  /// Starts the daemon, offers `encoding` alone, and initializes with
  /// `initializationOptions` if given.
  init(
    encoding: String = "utf-16", initializationOptions: JSONValue? = nil,
    file: StaticString = #filePath, line: UInt = #line
  ) throws {
    guard let executable = TestClient.builtProduct() else {
      throw BidiSessionError(description: "bidi-lsp is not built: run swift build -c release")
    }
    client = try TestClient(executable: executable)
    var params: JSONObject = ["capabilities": ["general": ["positionEncodings": [.string(encoding)]]]]
    if let initializationOptions { params["initializationOptions"] = initializationOptions }
    let reply = try client.request("initialize", .object(params))
    guard let negotiated = reply["result"]?["capabilities"]?["positionEncoding"]?.stringValue else {
      throw BidiSessionError(description: "initialize failed: \(reply)")
    }
    XCTAssertEqual(negotiated, encoding, "the daemon must take the only encoding offered", file: file, line: line)
    self.encoding = negotiated
    try client.notify("initialized", [:])
  }

  deinit {
    client.terminate()
  }

  static func schemas() throws -> JSONSchemaValidator {
    try loadedSchemas.get()
  }

  // MARK: Documents

  func open(_ text: String, uri: String = BidiSession.uri) throws {
    versions[uri] = 1
    try client.notify(
      "textDocument/didOpen",
      ["textDocument": ["uri": .string(uri), "languageId": "plaintext", "version": 1, "text": .string(text)]])
  }

  /// Sends a `didChange` with `changes` (LSP content change events).
  func change(_ changes: [JSONValue], uri: String = BidiSession.uri) throws {
    let version = (versions[uri] ?? 1) + 1
    versions[uri] = version
    try client.notify(
      "textDocument/didChange",
      ["textDocument": ["uri": .string(uri), "version": JSONValue(version)], "contentChanges": .array(changes)])
  }

  /// Sends TextEdits (as `bidi/insertMarks` answers them: against one
  /// version, not overlapping) as one `didChange`, last edit first so that
  /// each change's range still means what it meant.
  func apply(edits: [JSONValue], uri: String = BidiSession.uri) throws {
    guard !edits.isEmpty else { return }
    let changes = edits.sorted { BidiShadowText.start(of: $0) > BidiShadowText.start(of: $1) }.map {
      JSONValue.object(["range": $0["range"] ?? .null, "text": $0["newText"] ?? ""])
    }
    try change(changes, uri: uri)
  }

  /// The daemon's copy of a document (`bidi/documentInfo` with its text).
  func text(uri: String = BidiSession.uri, file: StaticString = #filePath, line: UInt = #line) throws -> String {
    let info = try result("bidi/documentInfo", ["includeText": true], uri: uri, file: file, line: line)
    guard let text = info["text"]?.stringValue else { throw BidiSessionError(description: "no text in \(info)") }
    return text
  }

  // MARK: Requests

  /// The schema file of a method: `bidi/visualOrder` → `bidi-visualOrder.schema.json`.
  static func schemaFile(_ method: String) -> String {
    method.split(separator: "/").joined(separator: "-") + ".schema.json"
  }

  /// The full params of a request on a document: `textDocument` and `options`.
  static func params(_ options: JSONObject, uri: String) -> JSONObject {
    var params: JSONObject = ["textDocument": ["uri": .string(uri)]]
    for (key, value) in options { params[key] = value }
    return params
  }

  /// Checks `value` against `$defs.<part>` of the method's schema.
  func assertValid(
    _ value: JSONValue, _ method: String, _ part: String, file: StaticString, line: UInt
  ) throws {
    let reference = Self.schemaFile(method) + "#/$defs/" + part
    let violations = try Self.schemas().validate(value, against: reference)
    XCTAssert(
      violations.isEmpty,
      "\(method) \(part) does not match \(reference):\n  "
        + violations.map(\.description).joined(separator: "\n  ") + "\n  value: \(value)",
      file: file, line: line)
  }

  /// Sends a request with `options` on `uri`, validating the params against
  /// the method's schema, and returns the validated result. An error answer
  /// fails the test and throws.
  @discardableResult
  func result(
    _ method: String, _ options: JSONObject = [:], uri: String = BidiSession.uri,
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> JSONValue {
    let params = JSONValue.object(Self.params(options, uri: uri))
    try assertValid(params, method, "params", file: file, line: line)
    let reply = try client.request(method, params)
    guard let result = reply["result"] else {
      XCTFail("\(method) \(params) failed: \(reply)", file: file, line: line)
      throw BidiSessionError(description: "\(method) failed: \(reply)")
    }
    try assertValid(result, method, "result", file: file, line: line)
    validatedCalls += 1
    return result
  }

  /// Sends a request that must fail; returns its error code and message.
  /// The params are still checked against the schema: these errors are
  /// about meaning (a line past the end), not about form.
  func error(
    _ method: String, _ options: JSONObject, uri: String = BidiSession.uri,
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> (code: Int, message: String) {
    let params = JSONValue.object(Self.params(options, uri: uri))
    try assertValid(params, method, "params", file: file, line: line)
    let reply = try client.request(method, params)
    guard let error = reply["error"], let code = error["code"]?.intValue else {
      XCTFail("\(method) \(params) should have failed: \(reply)", file: file, line: line)
      throw BidiSessionError(description: "\(method) did not fail: \(reply)")
    }
    return (code, error["message"]?.stringValue ?? "")
  }

  /// The paragraph entries of a `bidi/naturalDirection`, `bidi/alignment`
  /// or `bidi/visualOrder` result.
  func paragraphs(
    _ method: String, _ options: JSONObject = [:], uri: String = BidiSession.uri,
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> [JSONValue] {
    try result(method, options, uri: uri, file: file, line: line)["paragraphs"]?.arrayValue ?? []
  }

  /// The edits of a `bidi/insertMarks` result.
  func edits(
    _ options: JSONObject, uri: String = BidiSession.uri, file: StaticString = #filePath, line: UInt = #line
  ) throws -> [JSONValue] {
    try result("bidi/insertMarks", options, uri: uri, file: file, line: line)["edits"]?.arrayValue ?? []
  }
}

/// An LSP Range.
func bidiRange(_ startLine: Int, _ startCharacter: Int, _ endLine: Int, _ endCharacter: Int) -> JSONValue {
  [
    "start": ["line": JSONValue(startLine), "character": JSONValue(startCharacter)],
    "end": ["line": JSONValue(endLine), "character": JSONValue(endCharacter)],
  ]
}

/// The range of whole line `line`, as an editor selects it.
func bidiLineRange(_ line: Int) -> JSONValue { bidiRange(line, 0, line + 1, 0) }

// MARK: The naive model

/// A document's text as plain scalars, split into LSP lines from scratch,
/// with positions converted by counting units of an encoding.
struct BidiShadowText {
  var scalars: [Unicode.Scalar]

  init(_ text: String) { scalars = Array(text.unicodeScalars) }

  var text: String {
    var result = ""
    result.unicodeScalars.append(contentsOf: scalars)
    return result
  }

  /// Each line's content as a scalar range of the text (terminators left
  /// out), split at `\r\n`, `\r` and `\n`.
  var lineRanges: [Range<Int>] {
    var result: [Range<Int>] = []
    var start = 0
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "\n" || scalar == "\r" {
        result.append(start..<index)
        index += scalar == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n" ? 2 : 1
        start = index
      } else {
        index += 1
      }
    }
    result.append(start..<scalars.count)
    return result
  }

  var lines: [[Unicode.Scalar]] { lineRanges.map { Array(scalars[$0]) } }

  static func units(_ scalar: Unicode.Scalar, _ encoding: String) -> Int {
    switch encoding {
    case "utf-8": return UTF8.width(scalar)
    case "utf-32": return 1
    default: return UTF16.width(scalar)
    }
  }

  static func length(_ line: some Collection<Unicode.Scalar>, _ encoding: String) -> Int {
    line.reduce(0) { $0 + units($1, encoding) }
  }

  /// The unit offset of every scalar of `line`, and the line's length.
  static func offsets(_ line: [Unicode.Scalar], _ encoding: String) -> [Int] {
    var result = [0]
    for scalar in line { result.append(result[result.count - 1] + units(scalar, encoding)) }
    return result
  }

  /// The scalar index at unit offset `character` of `line`: clamped to the
  /// line, moved back to the start of a character it falls inside.
  static func scalarIndex(_ line: [Unicode.Scalar], character: Int, _ encoding: String) -> Int {
    var units = 0
    for (index, scalar) in line.enumerated() {
      units += Self.units(scalar, encoding)
      if units > character { return index }
    }
    return line.count
  }

  /// For a unit-offset array from the daemon (`visualOrder` and friends):
  /// the scalar index of each unit.
  static func scalarOfUnit(_ line: [Unicode.Scalar], _ encoding: String) -> [Int] {
    var result: [Int] = []
    for (index, scalar) in line.enumerated() {
      result += Array(repeating: index, count: units(scalar, encoding))
    }
    return result
  }

  /// The absolute scalar offset of an LSP position.
  func offset(line: Int, character: Int, _ encoding: String) -> Int? {
    let ranges = lineRanges
    guard line >= 0 && line < ranges.count else { return nil }
    let content = Array(scalars[ranges[line]])
    return ranges[line].lowerBound + Self.scalarIndex(content, character: character, encoding)
  }

  /// The LSP position of absolute scalar offset `offset`.
  func position(ofOffset offset: Int, _ encoding: String) -> JSONValue {
    let ranges = lineRanges
    let line = ranges.lastIndex { $0.lowerBound <= offset } ?? 0
    let start = ranges[line].lowerBound
    let character = Self.length(scalars[start..<min(max(offset, start), ranges[line].upperBound)], encoding)
    return ["line": JSONValue(line), "character": JSONValue(character)]
  }

  /// An edit's absolute scalar range in this text and its new length.
  func span(of edit: JSONValue, _ encoding: String) -> (range: Range<Int>, inserted: Int)? {
    guard let range = edit["range"], let newText = edit["newText"]?.stringValue,
      let start = offset(
        line: range["start"]?["line"]?.intValue ?? -1, character: range["start"]?["character"]?.intValue ?? 0, encoding),
      let end = offset(
        line: range["end"]?["line"]?.intValue ?? -1, character: range["end"]?["character"]?.intValue ?? 0, encoding),
      start <= end
    else { return nil }
    return (start..<end, newText.unicodeScalars.count)
  }

  /// `range` (an LSP Range in this text) grown by what `edits` insert in it
  /// or at its ends, as a Range in the text after the edits.
  func grown(_ range: JSONValue, by edits: [JSONValue], _ encoding: String) -> JSONValue? {
    guard
      var lower = offset(
        line: range["start"]?["line"]?.intValue ?? -1, character: range["start"]?["character"]?.intValue ?? 0, encoding),
      var upper = offset(
        line: range["end"]?["line"]?.intValue ?? -1, character: range["end"]?["character"]?.intValue ?? 0, encoding)
    else { return nil }
    let originalLower = lower
    let originalUpper = upper
    for edit in edits {
      guard let (span, inserted) = span(of: edit, encoding) else { return nil }
      let delta = inserted - span.count
      if span.lowerBound < originalLower && span.upperBound <= originalLower {
        lower += delta
        upper += delta
      } else if span.lowerBound <= originalUpper {
        upper += delta
      }
    }
    var after = self
    do { try after.apply(edits: edits, encoding) } catch { return nil }
    return ["start": after.position(ofOffset: lower, encoding), "end": after.position(ofOffset: upper, encoding)]
  }

  static func start(of edit: JSONValue) -> (Int, Int) {
    (edit["range"]?["start"]?["line"]?.intValue ?? 0, edit["range"]?["start"]?["character"]?.intValue ?? 0)
  }

  /// Applies TextEdits made against this text, together (as a
  /// WorkspaceEdit does). Fails on edits that overlap or lie outside.
  mutating func apply(edits: [JSONValue], _ encoding: String) throws {
    var replacements: [(range: Range<Int>, text: [Unicode.Scalar])] = []
    for edit in edits {
      guard let range = edit["range"], let newText = edit["newText"]?.stringValue,
        let startLine = range["start"]?["line"]?.intValue, let startCharacter = range["start"]?["character"]?.intValue,
        let endLine = range["end"]?["line"]?.intValue, let endCharacter = range["end"]?["character"]?.intValue,
        let start = offset(line: startLine, character: startCharacter, encoding),
        let end = offset(line: endLine, character: endCharacter, encoding), start <= end
      else { throw BidiSessionError(description: "a TextEdit that cannot apply: \(edit)") }
      replacements.append((start..<end, Array(newText.unicodeScalars)))
    }
    replacements.sort { $0.range.lowerBound < $1.range.lowerBound }
    for (a, b) in zip(replacements, replacements.dropFirst()) where b.range.lowerBound < a.range.upperBound {
      throw BidiSessionError(description: "TextEdits overlap: \(a.range) and \(b.range)")
    }
    for replacement in replacements.reversed() {
      scalars.replaceSubrange(replacement.range, with: replacement.text)
    }
  }
}

// MARK: Bidi characters

enum BidiChars {
  static let lrm: Unicode.Scalar = "\u{200E}"
  static let rlm: Unicode.Scalar = "\u{200F}"
  static let alm: Unicode.Scalar = "\u{061C}"
  static let lre: Unicode.Scalar = "\u{202A}"
  static let rle: Unicode.Scalar = "\u{202B}"
  static let pdf: Unicode.Scalar = "\u{202C}"
  static let lro: Unicode.Scalar = "\u{202D}"
  static let rlo: Unicode.Scalar = "\u{202E}"
  static let lri: Unicode.Scalar = "\u{2066}"
  static let rli: Unicode.Scalar = "\u{2067}"
  static let fsi: Unicode.Scalar = "\u{2068}"
  static let pdi: Unicode.Scalar = "\u{2069}"

  /// The controls mode `strip` removes (contract §4.4).
  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
  }

  static func isIsolateInitiator(_ scalar: Unicode.Scalar) -> Bool { (0x2066...0x2068).contains(scalar.value) }

  /// Text with its invisible controls spelled out, for messages.
  static func visible(_ scalars: some Sequence<Unicode.Scalar>) -> String {
    let names: [UInt32: String] = [
      0x200E: "LRM", 0x200F: "RLM", 0x061C: "ALM", 0x202A: "LRE", 0x202B: "RLE", 0x202C: "PDF", 0x202D: "LRO",
      0x202E: "RLO", 0x2066: "LRI", 0x2067: "RLI", 0x2068: "FSI", 0x2069: "PDI", 0x2029: "PS",
    ]
    var result = ""
    for scalar in scalars {
      if let name = names[scalar.value] { result += "<\(name)>" } else { result.unicodeScalars.append(scalar) }
    }
    return result
  }

  static func visible(_ text: String) -> String { visible(text.unicodeScalars) }

  /// The indices of the controls left unpaired on one line, by the rules of
  /// the `bidi.unpaired` diagnostic (contract §5, GCC's
  /// `-Wbidi-chars=unpaired`): openers form a stack; PDF closes the
  /// innermost open embedding or override only if no isolate is open inside
  /// it; PDI closes the innermost isolate and everything opened after it.
  /// Both openers left open and closers with nothing to close count.
  static func unpaired(_ line: [Unicode.Scalar]) -> [Int] {
    var stack: [(index: Int, isolate: Bool)] = []
    var result: [Int] = []
    for (index, scalar) in line.enumerated() {
      switch scalar.value {
      case 0x202A, 0x202B, 0x202D, 0x202E:
        stack.append((index, false))
      case 0x2066, 0x2067, 0x2068:
        stack.append((index, true))
      case 0x202C:
        if let top = stack.last, !top.isolate { stack.removeLast() } else { result.append(index) }
      case 0x2069:
        if let isolate = stack.lastIndex(where: { $0.isolate }) {
          stack.removeSubrange(isolate...)
        } else {
          result.append(index)
        }
      default:
        break
      }
    }
    return (result + stack.map(\.index)).sorted()
  }
}
