import BidiTestSupport
import Foundation
import JSONRPC
import XCTest

// Helpers of the hazard and editor-feature integration tests: the hazard
// corpus and its manifest, a shadow copy of a document that applies LSP
// TextEdits in any position encoding, a session with the built daemon, and a
// runner for the `check` and `visual` commands. Every name starts with
// `Hazard` so that other test files of this target cannot clash with them.

/// A failure of the test harness itself (not of an assertion).
struct HazardHarnessError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// A position encoding, and how many of its units a text takes.
enum HazardEncoding: String, CaseIterable {
  case utf8 = "utf-8"
  case utf16 = "utf-16"
  case utf32 = "utf-32"

  func units(_ text: Substring) -> Int {
    switch self {
    case .utf8: text.utf8.count
    case .utf16: text.utf16.count
    case .utf32: text.unicodeScalars.count
    }
  }

  func units(_ text: String) -> Int { units(text[...]) }

  func units(_ scalar: Unicode.Scalar) -> Int {
    switch self {
    case .utf8: UTF8.width(scalar)
    case .utf16: UTF16.width(scalar)
    case .utf32: 1
    }
  }
}

/// The twelve bidi controls: code point, short name and Unicode name.
enum HazardControls {
  static let all: [(scalar: Unicode.Scalar, short: String, name: String)] = [
    ("\u{061C}", "ALM", "ARABIC LETTER MARK"),
    ("\u{200E}", "LRM", "LEFT-TO-RIGHT MARK"),
    ("\u{200F}", "RLM", "RIGHT-TO-LEFT MARK"),
    ("\u{202A}", "LRE", "LEFT-TO-RIGHT EMBEDDING"),
    ("\u{202B}", "RLE", "RIGHT-TO-LEFT EMBEDDING"),
    ("\u{202C}", "PDF", "POP DIRECTIONAL FORMATTING"),
    ("\u{202D}", "LRO", "LEFT-TO-RIGHT OVERRIDE"),
    ("\u{202E}", "RLO", "RIGHT-TO-LEFT OVERRIDE"),
    ("\u{2066}", "LRI", "LEFT-TO-RIGHT ISOLATE"),
    ("\u{2067}", "RLI", "RIGHT-TO-LEFT ISOLATE"),
    ("\u{2068}", "FSI", "FIRST STRONG ISOLATE"),
    ("\u{2069}", "PDI", "POP DIRECTIONAL ISOLATE"),
  ]

  /// `U+202E RIGHT-TO-LEFT OVERRIDE`, or nil if `scalar` is not a control.
  static func displayName(_ scalar: Unicode.Scalar) -> String? {
    guard let control = all.first(where: { $0.scalar == scalar }) else { return nil }
    return "U+" + String(format: "%04X", scalar.value) + " " + control.name
  }

  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    all.contains { $0.scalar == scalar }
  }

  /// `text` with each bidi control written by its short name (`<RLI>`), as
  /// diagnostic messages quote a line's visual order.
  static func named(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      if let control = all.first(where: { $0.scalar == scalar }) {
        result += "<\(control.short)>"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// LRE, RLE, LRO, RLO, LRI, RLI, FSI.
  static func isOpener(_ scalar: Unicode.Scalar) -> Bool {
    [0x202A, 0x202B, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068].contains(scalar.value)
  }
}

// MARK: The corpus

/// The hazard corpus of BidiHazardsTests and its manifest `expected.txt`.
enum HazardCorpus {
  /// `Tests/BidiHazardsTests/Corpus`, found from this file's path.
  static let root: URL = {
    var url = URL(fileURLWithPath: #filePath)
    url.deleteLastPathComponent()  // IntegrationTests
    url.deleteLastPathComponent()  // Tests
    return url.appendingPathComponent("BidiHazardsTests/Corpus")
  }()

  /// The sizes the manifest promises; the tests assert them so that a
  /// corpus that lost files cannot pass by checking less.
  static let hazardFileCount = 14
  static let cleanFileCount = 12
  static let findingCount = 92

  /// One expected finding: `hazards/x.c:5:8 bidi.inComment`.
  struct Finding: Hashable, Comparable, CustomStringConvertible {
    var path: String
    /// 1-based.
    var line: Int
    /// 1-based, in UTF-8 bytes.
    var column: Int
    var code: String
    var description: String { "\(path):\(line):\(column) \(code)" }
    static func < (a: Finding, b: Finding) -> Bool {
      (a.path, a.line, a.column, a.code) < (b.path, b.line, b.column, b.code)
    }
  }

  /// `folder/name` of every file of `folder` ("hazards" or "clean"), sorted.
  static func files(_ folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
      .sorted().map { "\(folder)/\($0)" }
  }

  static func allFiles() throws -> [String] {
    try files("hazards") + files("clean")
  }

  static func text(_ path: String) throws -> String {
    let data = try Data(contentsOf: root.appendingPathComponent(path))
    guard let text = String(data: data, encoding: .utf8) else { throw HazardHarnessError("\(path) is not UTF-8") }
    return text
  }

  static func expected() throws -> [Finding] {
    let manifest = try String(contentsOf: root.appendingPathComponent("expected.txt"), encoding: .utf8)
    var findings: [Finding] = []
    for entry in manifest.split(separator: "\n") where !entry.hasPrefix("#") {
      let parts = entry.split(separator: " ")
      let location = parts.first?.split(separator: ":") ?? []
      guard parts.count == 2, location.count == 3, let line = Int(location[1]), let column = Int(location[2]) else {
        throw HazardHarnessError("bad manifest entry: \(entry)")
      }
      findings.append(Finding(path: String(location[0]), line: line, column: column, code: String(parts[1])))
    }
    return findings.sorted()
  }

  /// The LSP languageId of a corpus file, from its extension.
  static func languageId(_ path: String) -> String {
    let languages = [
      "c": "c", "cpp": "cpp", "swift": "swift", "rs": "rust", "go": "go", "java": "java",
      "js": "javascript", "ts": "typescript", "py": "python", "rb": "ruby", "sh": "shellscript",
    ]
    let ext = path.split(separator: ".").last.map(String.init) ?? ""
    return languages[ext] ?? "plaintext"
  }

  /// Default LSP severities (contract §5).
  static func defaultSeverity(_ code: String) -> Int {
    code == "bidi.override" || code == "bidi.unmatched" || code == "bidi.invalidUtf8" ? 2 : 1
  }
}

// MARK: Text and positions

/// A shadow copy of a document: lines split at LF, CR LF and CR as the
/// daemon splits them, LSP positions in any encoding, and TextEdits applied
/// as an editor applies a WorkspaceEdit.
struct HazardText: Equatable {
  /// The lines, without terminators.
  private(set) var lines: [Substring] = []
  private(set) var terminators: [String] = []
  let text: String

  init(_ text: String) {
    self.text = text
    var start = text.unicodeScalars.startIndex
    var i = start
    let scalars = text.unicodeScalars
    while i < scalars.endIndex {
      let scalar = scalars[i]
      if scalar == "\n" || scalar == "\r" {
        lines.append(Substring(scalars[start..<i]))
        var next = scalars.index(after: i)
        if scalar == "\r", next < scalars.endIndex, scalars[next] == "\n" {
          next = scalars.index(after: next)
          terminators.append("\r\n")
        } else {
          terminators.append(String(scalar))
        }
        i = next
        start = i
      } else {
        i = scalars.index(after: i)
      }
    }
    lines.append(Substring(scalars[start..<scalars.endIndex]))
    terminators.append("")
  }

  var lineCount: Int { lines.count }

  /// The character offset (in `encoding`) of the UTF-8 byte offset `byte`
  /// of line `line`.
  func character(line: Int, utf8Offset byte: Int, in encoding: HazardEncoding) -> Int {
    let bytes = Array(lines[line].utf8.prefix(byte))
    return encoding.units(String(decoding: bytes, as: UTF8.self))
  }

  /// The scalar at a UTF-8 byte offset of a line.
  func scalar(line: Int, utf8Offset byte: Int) -> Unicode.Scalar? {
    let rest = Array(lines[line].utf8.dropFirst(byte))
    return String(decoding: rest, as: UTF8.self).unicodeScalars.first
  }

  /// The scalar at an LSP position.
  func scalar(line: Int, character: Int, in encoding: HazardEncoding) -> Unicode.Scalar? {
    let index = stringIndex(line: line, character: character, in: encoding)
    let scalars = lines[line].unicodeScalars
    return index < scalars.endIndex ? scalars[index] : nil
  }

  /// The index in `lines[line]` of an LSP character offset (clamped to the
  /// line's end; inside a character, moved back to its start).
  func stringIndex(line: Int, character: Int, in encoding: HazardEncoding) -> String.Index {
    let scalars = lines[line].unicodeScalars
    var units = 0
    var i = scalars.startIndex
    while i < scalars.endIndex {
      let width = encoding.units(scalars[i])
      if units + width > character { break }
      units += width
      i = scalars.index(after: i)
    }
    return i
  }

  /// The UTF-8 offset in the whole text of an LSP position.
  func utf8Offset(_ position: JSONValue, in encoding: HazardEncoding) throws -> Int {
    guard let line = position["line"]?.intValue, let character = position["character"]?.intValue,
      line >= 0, line < lineCount
    else { throw HazardHarnessError("bad position \(position)") }
    var offset = 0
    for k in 0..<line { offset += lines[k].utf8.count + terminators[k].utf8.count }
    let index = stringIndex(line: line, character: character, in: encoding)
    return offset + lines[line][..<index].utf8.count
  }

  /// The text after applying LSP TextEdits (all against this text, non
  /// overlapping, inserts at one position kept in their order).
  func applying(_ edits: [JSONValue], in encoding: HazardEncoding) throws -> HazardText {
    var located: [(start: Int, end: Int, order: Int, text: String)] = []
    for (order, edit) in edits.enumerated() {
      guard let range = edit["range"], let start = range["start"], let end = range["end"],
        let newText = edit["newText"]?.stringValue
      else { throw HazardHarnessError("bad TextEdit \(edit)") }
      located.append((try utf8Offset(start, in: encoding), try utf8Offset(end, in: encoding), order, newText))
    }
    // From the end backwards; at one position, the later-listed edit first.
    located.sort { ($0.start, $0.order) > ($1.start, $1.order) }
    var bytes = Array(text.utf8)
    var limit = bytes.count
    for edit in located {
      guard edit.start <= edit.end, edit.end <= limit else {
        throw HazardHarnessError("overlapping TextEdits: \(edits)")
      }
      bytes.replaceSubrange(edit.start..<edit.end, with: Array(edit.text.utf8))
      limit = edit.start
    }
    return HazardText(String(decoding: bytes, as: UTF8.self))
  }

  /// The edits as `didChange` content changes: applied one after the other,
  /// from the end of the document backwards, they give `applying(edits)`.
  static func contentChanges(for edits: [JSONValue]) -> [JSONValue] {
    func key(_ edit: JSONValue) -> (Int, Int) {
      (edit["range"]?["start"]?["line"]?.intValue ?? 0, edit["range"]?["start"]?["character"]?.intValue ?? 0)
    }
    let ordered = edits.enumerated().sorted { a, b in
      let ka = key(a.element)
      let kb = key(b.element)
      return ka != kb ? ka > kb : a.offset > b.offset
    }
    return ordered.map { ["range": $0.element["range"] ?? .null, "text": $0.element["newText"] ?? ""] }
  }
}

/// JSON builders.
enum HazardJSON {
  static func position(_ line: Int, _ character: Int) -> JSONValue {
    ["line": JSONValue(line), "character": JSONValue(character)]
  }

  static func range(_ startLine: Int, _ startCharacter: Int, _ endLine: Int, _ endCharacter: Int) -> JSONValue {
    ["start": position(startLine, startCharacter), "end": position(endLine, endCharacter)]
  }

  static func document(_ uri: String) -> JSONValue { ["uri": .string(uri)] }
}

// MARK: A daemon session

/// The built daemon, initialized, with helpers for documents, diagnostics
/// and requests. Messages that arrive while waiting for another stay queued.
final class HazardSession {
  let client: TestClient
  /// The negotiated position encoding.
  let encoding: HazardEncoding
  /// The `initialize` result.
  let capabilities: JSONValue
  private var versions: [String: Int] = [:]

  /// Generous hang timeouts (seconds): a hung daemon fails, a slow one passes.
  static let timeout = 60.0

  static func executable() throws -> String {
    guard let path = TestClient.builtProduct() else {
      throw HazardHarnessError("bidi-lsp is not built: run `swift build -c release` first")
    }
    return path
  }

  init(encoding: HazardEncoding? = nil, initializationOptions: JSONValue? = nil) throws {
    client = try TestClient(executable: try Self.executable())
    var params: JSONObject = ["capabilities": [:]]
    if let encoding {
      params["capabilities"] = ["general": ["positionEncodings": [.string(encoding.rawValue)]]]
    }
    if let initializationOptions { params["initializationOptions"] = initializationOptions }
    let reply = try client.request("initialize", .object(params), timeout: Self.timeout)
    guard let capabilities = reply["result"]?["capabilities"],
      let name = capabilities["positionEncoding"]?.stringValue, let negotiated = HazardEncoding(rawValue: name)
    else { throw HazardHarnessError("initialize failed: \(reply)") }
    self.capabilities = capabilities
    self.encoding = negotiated
    try client.notify("initialized", [:])
  }

  deinit {
    // Best effort: a polite end; the TestClient kills what is left.
    _ = try? client.request("shutdown", nil, timeout: 10)
    try? client.notify("exit")
    _ = client.exitStatus(timeout: 10)
  }

  // MARK: Documents

  func open(_ uri: String, languageId: String, text: String, version: Int = 1) throws {
    versions[uri] = version
    try client.notify(
      "textDocument/didOpen",
      [
        "textDocument": [
          "uri": .string(uri), "languageId": .string(languageId), "version": JSONValue(version), "text": .string(text),
        ]
      ])
  }

  /// Sends a `didChange` with the next version (returned).
  @discardableResult
  func change(_ uri: String, _ changes: [JSONValue]) throws -> Int {
    let version = (versions[uri] ?? 0) + 1
    versions[uri] = version
    try client.notify(
      "textDocument/didChange",
      ["textDocument": ["uri": .string(uri), "version": JSONValue(version)], "contentChanges": .array(changes)])
    return version
  }

  /// Replaces the whole text (a full-text change).
  @discardableResult
  func replaceText(_ uri: String, with text: String) throws -> Int {
    try change(uri, [["text": .string(text)]])
  }

  func close(_ uri: String) throws {
    try client.notify("textDocument/didClose", ["textDocument": ["uri": .string(uri)]])
  }

  func version(_ uri: String) -> Int { versions[uri] ?? 0 }

  /// The params of the next publishDiagnostics for `uri`, skipping older
  /// versions when `version` is given.
  func publish(_ uri: String, version: Int? = nil) throws -> JSONValue {
    while true {
      let message = try client.reader.next(timeout: Self.timeout, what: "publishDiagnostics for \(uri)") {
        $0["method"] == "textDocument/publishDiagnostics" && $0["params"]?["uri"] == .string(uri)
      }
      let params = message["params"] ?? .null
      guard let version, let published = params["version"]?.intValue, published < version else { return params }
    }
  }

  /// The diagnostics of the next publish for `uri` (at `version` if given).
  func diagnostics(_ uri: String, version: Int? = nil) throws -> [JSONValue] {
    let params = try publish(uri, version: version)
    if let version { XCTAssertEqual(params["version"]?.intValue, version, "publish version of \(uri)") }
    return params["diagnostics"]?.arrayValue ?? []
  }

  /// Opens a document and returns its first published diagnostics.
  func openAndDiagnose(_ uri: String, languageId: String, text: String) throws -> [JSONValue] {
    try open(uri, languageId: languageId, text: text)
    return try diagnostics(uri, version: version(uri))
  }

  /// What a fresh scan of `text` gives: opens it under a new URI, reads the
  /// diagnostics, closes it again.
  func freshDiagnostics(of text: String, languageId: String, like uri: String) throws -> [JSONValue] {
    let fresh = uri + ".fresh\(freshCount)"
    freshCount += 1
    let diagnostics = try openAndDiagnose(fresh, languageId: languageId, text: text)
    try close(fresh)
    _ = try publish(fresh)
    return diagnostics
  }

  private var freshCount = 0

  /// Whether a publish for `uri` is waiting (after a round trip, so that
  /// anything the daemon sent before answering has arrived).
  func hasPendingPublish(_ uri: String) throws -> Bool {
    _ = try client.request(
      "bidi/documentInfo", ["textDocument": ["uri": "file:///nonexistent-sync"]], timeout: Self.timeout)
    return client.reader.pending.contains {
      $0["method"] == "textDocument/publishDiagnostics" && $0["params"]?["uri"] == .string(uri)
    }
  }

  // MARK: Requests

  /// The whole response (result or error).
  func request(_ method: String, _ params: JSONValue) throws -> JSONValue {
    try client.request(method, params, timeout: Self.timeout)
  }

  /// The result of a request that must succeed.
  func result(_ method: String, _ params: JSONValue) throws -> JSONValue {
    let response = try request(method, params)
    guard let result = response["result"] else {
      throw HazardHarnessError("\(method) failed: \(response["error"] ?? response)")
    }
    return result
  }

  /// The daemon's current text of a document.
  func text(_ uri: String) throws -> String {
    let info = try result("bidi/documentInfo", ["textDocument": HazardJSON.document(uri), "includeText": true])
    return info["text"]?.stringValue ?? ""
  }

  func codeActions(_ uri: String, range: JSONValue, only: [String]? = nil, diagnostics: [JSONValue] = []) throws
    -> [JSONValue]
  {
    var context: JSONObject = ["diagnostics": .array(diagnostics)]
    if let only { context["only"] = .array(only.map { .string($0) }) }
    let result = try result(
      "textDocument/codeAction",
      ["textDocument": HazardJSON.document(uri), "range": range, "context": .object(context)])
    return result.arrayValue ?? []
  }

  /// The `visualText` of every display line of line `line`'s paragraphs,
  /// joined, from `bidi/visualOrder` (direction auto unless given).
  func visualText(_ uri: String, line: Int, options: JSONObject = [:]) throws -> String {
    var params = options
    params["textDocument"] = HazardJSON.document(uri)
    params["range"] = HazardJSON.range(line, 0, line, Int(Int32.max))
    params["include"] = ["visualText"]
    let result = try result("bidi/visualOrder", .object(params))
    var text = ""
    for paragraph in result["paragraphs"]?.arrayValue ?? [] {
      for display in paragraph["lines"]?.arrayValue ?? [] { text += display["visualText"]?.stringValue ?? "" }
    }
    return text
  }
}

extension JSONValue {
  /// `range.start.line` of a diagnostic or TextEdit.
  var hazardStartLine: Int { self["range"]?["start"]?["line"]?.intValue ?? -1 }
  var hazardStartCharacter: Int { self["range"]?["start"]?["character"]?.intValue ?? -1 }
  var hazardCode: String { self["code"]?.stringValue ?? "" }
}

// MARK: The command line

/// Runs the built `bidi-lsp` with arguments, standard input and a working
/// directory; stdout and stderr go to files, so that no pipe can fill up.
enum HazardCommand {
  struct Result {
    var status: Int32
    var output: Data
    var errorOutput: String
    var text: String { String(decoding: output, as: UTF8.self) }
    /// Output lines (without the last empty one after a final newline).
    var lines: [String] {
      var lines = text.components(separatedBy: "\n")
      if lines.last == "" { lines.removeLast() }
      return lines
    }
  }

  static func run(_ arguments: [String], input: Data = Data(), in directory: URL? = nil, timeout: Double = 120) throws
    -> Result
  {
    let scratch = try HazardScratch()
    let inputURL = scratch.url.appendingPathComponent("stdin")
    let outputURL = scratch.url.appendingPathComponent("stdout")
    let errorURL = scratch.url.appendingPathComponent("stderr")
    try input.write(to: inputURL)
    try Data().write(to: outputURL)
    try Data().write(to: errorURL)
    let stdin = try FileHandle(forReadingFrom: inputURL)
    let stdout = try FileHandle(forWritingTo: outputURL)
    let stderr = try FileHandle(forWritingTo: errorURL)
    defer {
      try? stdin.close()
      try? stdout.close()
      try? stderr.close()
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try HazardSession.executable())
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning {
      if Date() > deadline {
        process.terminate()
        process.waitUntilExit()
        throw HazardHarnessError("bidi-lsp \(arguments.joined(separator: " ")) did not finish in \(timeout) s")
      }
      usleep(2_000)
    }
    return Result(
      status: process.terminationStatus, output: try Data(contentsOf: outputURL),
      errorOutput: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self))
  }
}

/// A temporary directory, removed when released.
final class HazardScratch {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("bidi-hazard-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  /// Writes `bytes` at `path` (relative), creating folders.
  @discardableResult
  func write(_ path: String, _ bytes: [UInt8]) throws -> URL {
    let file = url.appendingPathComponent(path)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(bytes).write(to: file)
    return file
  }

  @discardableResult
  func write(_ path: String, _ text: String) throws -> URL {
    try write(path, Array(text.utf8))
  }
}
