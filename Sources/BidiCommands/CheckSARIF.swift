import BidiHazards
import JSONRPC
import StructuredText
import UnicodeBidi

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// `bidi-lsp check --format sarif` (contract §9): one SARIF 2.1.0 log with
// one run, whose tool driver is bidi-lsp with its version and a rule per
// code (`SARIFRule.all`). Each finding is a result with its rule, level,
// message and a region whose lines and columns are 1-based and count
// Unicode code points (SARIF's default `columnKind`), and its quick fixes
// as SARIF `fixes`. The log is streamed like the JSON output: the results
// one at a time, then the invocation (exit code, I/O errors and skipped
// files as notifications). Relative paths are URIs relative to
// `%SRCROOT%`, the working directory, as GitHub code scanning expects.

/// A quick fix of a finding: a title and edits, at zero-based lines and
/// UTF-8 byte columns of the finding's file (as the finding's own position).
struct CheckFix {
  var title: String
  var edits: [SourceEdit]

  init(_ fix: HazardFix) {
    title = fix.title
    edits = fix.edits.map { edit in
      SourceEdit(
        range: SourceRange(
          start: SourcePosition(line: edit.line, column: edit.range.lowerBound),
          end: SourcePosition(line: edit.line, column: edit.range.upperBound)),
        newText: edit.newText)
    }
  }

  init(_ fix: Fix) {
    title = fix.title
    edits = fix.edits
  }
}

/// The text a finding is in, to count its columns in code points: the one
/// line a hazard of a scanned stream is on, or the whole (decoded) text of a
/// localization file, whose findings and fixes can span lines.
enum FindingText {
  case line(number: Int, bytes: UnsafeBufferPointer<UInt8>)
  case file(TextLines)

  /// The bytes of `line` (empty if this text does not hold it) to `body`.
  func withLine<R>(_ line: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    switch self {
    case .line(let number, let bytes):
      return body(number == line ? bytes : UnsafeBufferPointer(start: nil, count: 0))
    case .file(let text):
      guard line >= 0 && line < text.lineCount else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
      return text.withUTF8(ofLine: line, body)
    }
  }

  /// The 1-based column in code points of byte `column` of zero-based
  /// `line`. A byte order mark at the start of the text is not counted; an
  /// ill-formed sequence counts as one code point per maximal subpart, as
  /// everywhere (`LineUnits`). A line of `SARIFColumns.longLine` bytes or
  /// more is counted from `columns`' records, kept while its findings are
  /// written, so that many findings on one long line stay linear.
  func codePointColumn(line: Int, byte column: Int, columns: inout SARIFColumns) -> Int {
    withLine(line) { bytes in
      var characters: Int
      if bytes.count >= SARIFColumns.longLine {
        if columns.line != line || columns.text != columns.current || columns.units == nil {
          columns.line = line
          columns.text = columns.current
          columns.units = LineUnits(Array(bytes), encoding: .utf32)
        }
        characters = columns.units!.character(atUTF8Offset: column)
      } else {
        characters = LineUnits.character(atUTF8Offset: column, in: bytes, .utf32)
      }
      if line == 0, column >= 3, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
        characters -= 1
      }
      return characters + 1
    }
  }

  /// The position `length` bytes after (`line`, `column`): on the same line
  /// for a stream's line; for a file, across its line breaks.
  func position(line: Int, column: Int, after length: Int) -> SourcePosition {
    guard case .file(let text) = self, line < text.lineCount else {
      return SourcePosition(line: line, column: column + length)
    }
    let offset = text.byteRange(ofLine: line).lowerBound + column + length
    var end = line
    while end + 1 < text.lineCount && text.byteRange(ofLine: end + 1).lowerBound <= offset { end += 1 }
    return SourcePosition(line: end, column: offset - text.byteRange(ofLine: end).lowerBound)
  }

  /// A SARIF region from zero-based byte positions.
  func region(from start: SourcePosition, to end: SourcePosition, columns: inout SARIFColumns) -> JSONValue {
    .object(
      JSONObject([
        ("startLine", JSONValue(start.line + 1)),
        ("startColumn", JSONValue(codePointColumn(line: start.line, byte: start.column, columns: &columns))),
        ("endLine", JSONValue(end.line + 1)),
        ("endColumn", JSONValue(codePointColumn(line: end.line, byte: end.column, columns: &columns))),
      ]))
  }
}

/// The code points of the last long line SARIF columns were counted in
/// (`FindingText.codePointColumn`): its `LineUnits`, built once for all the
/// findings on it instead of counting from its start for each.
struct SARIFColumns {
  /// Lines shorter than this are counted from their start each time.
  static let longLine = 4096
  /// The file being reported (`CheckRun.filesChecked`: one number a file).
  var current = 0
  var text = -1
  var line = -1
  var units: LineUnits?
}

extension CheckRun {
  /// Writes the log's start, up to the results.
  mutating func beginSARIF() {
    let rules = SARIFRule.all.map { rule -> JSONValue in
      [
        "id": .string(rule.id),
        "name": .string(rule.id.dropFirst(5).prefix(1).uppercased() + rule.id.dropFirst(6)),
        "shortDescription": ["text": .string(rule.title)],
        "fullDescription": ["text": .string(rule.description)],
        "defaultConfiguration": ["level": .string(rule.severity.sarifLevel)],
      ]
    }
    var driver = JSONObject([
      ("name", "bidi-lsp"), ("informationUri", "https://github.com/bidi-lsp/bidi-lsp"),
      ("rules", .array(rules)),
    ])
    if let toolVersion { driver["version"] = .string(toolVersion) }
    let tool: JSONValue = ["driver": .object(driver)]
    var run = JSONObject([("tool", tool)])
    if let directory = workingDirectoryURI() {
      let base: JSONValue = ["uri": .string(directory)]
      run["originalUriBaseIds"] = ["%SRCROOT%": base]
    }
    run["columnKind"] = "unicodeCodePoints"
    // The run's members before `results`, then the results' array opened.
    var head = Self.json(.object(run))
    head.removeLast()
    stdout(
      "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\",\"runs\":[\n"
        + head + ",\"results\":[\n")
  }

  /// Writes one finding as a result.
  mutating func reportSARIF(_ finding: CheckFinding, path: String, text: FindingText) {
    let location = Self.artifactLocation(path)
    sarifColumns.current = filesChecked
    let start = SourcePosition(line: finding.line, column: finding.column)
    let end = text.position(line: finding.line, column: finding.column, after: finding.length)
    var result = JSONObject([("ruleId", .string(finding.code.rawValue))])
    if let index = SARIFRule.indices[finding.code.rawValue] { result["ruleIndex"] = JSONValue(index) }
    result["level"] = .string(finding.severity.sarifLevel)
    result["message"] = ["text": .string(finding.message)]
    result["locations"] = [
      [
        "physicalLocation": [
          "artifactLocation": location, "region": text.region(from: start, to: end, columns: &sarifColumns),
        ]
      ]
    ]
    if !finding.fixes.isEmpty {
      result["fixes"] = .array(
        finding.fixes.map { fix in
          let replacements = fix.edits.map { edit -> JSONValue in
            let deleted = text.region(from: edit.range.start, to: edit.range.end, columns: &sarifColumns)
            var replacement = JSONObject([("deletedRegion", deleted)])
            if !edit.newText.isEmpty { replacement["insertedContent"] = ["text": .string(edit.newText)] }
            return .object(replacement)
          }
          return [
            "description": ["text": .string(fix.title)],
            "artifactChanges": [["artifactLocation": location, "replacements": .array(replacements)]],
          ]
        })
    }
    var properties = JSONObject()
    if let key = finding.key { properties["key"] = .string(key) }
    if let variant = finding.variant { properties["variant"] = .string(variant) }
    if !properties.isEmpty { result["properties"] = .object(properties) }
    stdout((findings > 1 ? ",\n" : "") + Self.json(.object(result)))
  }

  /// Writes the end of the log: the invocation, with the exit status, the
  /// I/O errors and the skipped binary files.
  mutating func endSARIF() {
    var notifications: [JSONValue] = errors.map { error in
      [
        "level": "error", "message": ["text": .string(error.message)],
        "locations": [["physicalLocation": ["artifactLocation": Self.artifactLocation(error.path)]]],
      ]
    }
    notifications += skipped.map { path in
      [
        "level": "note", "message": ["text": "skipped: a binary file (a NUL byte in its first 8 KiB)"],
        "locations": [["physicalLocation": ["artifactLocation": Self.artifactLocation(path)]]],
      ]
    }
    var invocation = JSONObject([
      ("executionSuccessful", .bool(ioErrors == 0)),
      ("exitCode", JSONValue(ioErrors > 0 ? 2 : findings > 0 ? 1 : 0)),
    ])
    if !notifications.isEmpty { invocation["toolExecutionNotifications"] = .array(notifications) }
    stdout("\n],\n\"invocations\":[" + Self.json(.object(invocation)) + "]}]}\n")
  }

  /// A path as a SARIF `artifactLocation`: a relative path as a URI relative
  /// to `%SRCROOT%` (without its leading `./`), an absolute one as a
  /// `file:` URI, percent-encoded but for letters, digits, `-._~` and `/`;
  /// standard input (`-`) by a description alone.
  static func artifactLocation(_ path: String) -> JSONValue {
    if path == "-" { return ["description": ["text": "standard input"]] }
    if path.hasPrefix("/") { return ["uri": .string("file://" + percentEncoded(path))] }
    var relative = Substring(path)
    while relative.hasPrefix("./") { relative = relative.dropFirst(2).drop(while: { $0 == "/" }) }
    return ["uri": .string(percentEncoded(relative.isEmpty ? "." : String(relative))), "uriBaseId": "%SRCROOT%"]
  }

  static func percentEncoded(_ path: String) -> String {
    var out: [UInt8] = []
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"), UInt8(ascii: "/"):
        out.append(byte)
      default:
        let digits = Array("0123456789ABCDEF".utf8)
        out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The working directory as a `file:` URI ending in `/`, nil if unknown.
  private func workingDirectoryURI() -> String? {
    guard let directory = getcwd(nil, 0) else { return nil }
    defer { free(directory) }
    let path = String(cString: directory)
    return "file://" + Self.percentEncoded(path.hasSuffix("/") ? path : path + "/")
  }
}
