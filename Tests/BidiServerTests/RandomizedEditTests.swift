import BidiTestSupport
import JSONRPC
import UnicodeBidi
import XCTest

/// Documents (specification, "Documents") under load: a seeded random sequence of incremental edits
/// across several documents, in each position encoding, checked against the
/// test's own shadow copies through `bidi/documentInfo` with `includeText`.
final class RandomizedEditTests: XCTestCase {
  /// Incremental edits (content changes with a range) per encoding.
  static let editsPerEncoding = 10_000
  /// Check every document after this many notifications.
  static let checkInterval = 100

  /// Pieces random insertions are made of: Arabic, Hebrew, astral emoji
  /// (with ZWJ sequences and skin tones), combining marks, bidi controls,
  /// all three line terminators, NUL, other paragraph separators.
  static let pieces: [String] = [
    "a", "hello ", "world", " ", "\t", "123", "مرحبا", "بالعالم ", "١٢٣", "שלום", "עולם ",
    "😀", "👩🏽‍💻", "𝒜𝒷", "🇮🇱", "e\u{301}", "\u{200F}", "\u{2067}", "\u{2069}", "\u{202E}",
    "\n", "\r\n", "\r", "\n\n", "\r\r\n", "line\nnext\r\nlast", "ab\r", "\ncd", "\u{0}",
    "\u{2029}", "\u{85}", "﷽", "ﻻ", "\u{10FFFF}", "\u{E000}",
  ]

  /// What the edits exercised, so the generator cannot silently degrade.
  struct Coverage {
    var edits = 0
    var fullChanges = 0
    var multiLine = 0
    var astral = 0
    var skewed = 0
    var crlfJoins = 0
  }

  func testTenThousandRandomEditsPerEncodingMatchShadow() throws {
    var total = 0
    for (index, encoding) in PositionEncoding.allCases.enumerated() {
      let coverage = try runEdits(encoding: encoding, seed: 0x5EED_0000 + UInt64(index))
      XCTAssertEqual(coverage.edits, Self.editsPerEncoding, encoding.rawValue)
      XCTAssertGreaterThan(coverage.fullChanges, 0, encoding.rawValue)
      XCTAssertGreaterThan(coverage.multiLine, 1000, encoding.rawValue)
      XCTAssertGreaterThan(coverage.astral, 1000, encoding.rawValue)
      XCTAssertGreaterThan(coverage.skewed, 20, encoding.rawValue)
      XCTAssertGreaterThan(coverage.crlfJoins, 10, encoding.rawValue)
      print("RandomizedEditTests \(encoding.rawValue): \(coverage)")
      total += coverage.edits
    }
    XCTAssertEqual(total, 3 * Self.editsPerEncoding, "incremental edits applied and checked")
  }

  /// Runs the edits against one daemon; returns what they covered.
  private func runEdits(encoding: PositionEncoding, seed: UInt64) throws -> Coverage {
    var random = SeededGenerator(seed: seed)
    let daemon = try TestSession(.bidiLSP, encoding: encoding, ignoring: TestSession.diagnosticsAndProgress)
    let negotiated = try daemon.barrier()
    XCTAssertEqual(negotiated, [])
    let uris = (0..<4).map { "file:///random/\(encoding.rawValue)/doc\($0).txt" }
    let seeds = ["", "hello\r\nمرحبا 😀\rשלום\n", "a\nb\nc\n", String(repeating: "abc عربي 😀\r\n", count: 20)]
    var shadows: [String: TestText] = [:]
    var versions: [String: Int] = [:]
    for (uri, text) in zip(uris, seeds) {
      try daemon.open(uri, text: text, version: 1)
      shadows[uri] = TestText(text)
      versions[uri] = 1
    }

    var coverage = Coverage()
    var edits = 0
    var notifications = 0
    var recent: [String] = []
    while edits < Self.editsPerEncoding {
      let uri = uris[Int.random(in: 0..<uris.count, using: &random)]
      guard var shadow = shadows[uri], let version = versions[uri] else { continue }
      // One to three changes per notification; full changes do not count
      // as incremental edits.
      let count = Int.random(in: 1...3, using: &random)
      var changes: [JSONValue] = []
      while changes.count < count && edits < Self.editsPerEncoding {
        let (change, description) = randomChange(&shadow, encoding: encoding, coverage: &coverage, using: &random)
        changes.append(change)
        if change["range"] != nil { edits += 1 }
        recent.append("\(uri) v\(version + 1): \(description)")
      }
      if recent.count > 12 { recent.removeFirst(recent.count - 12) }
      notifications += 1
      try daemon.change(uri, version: version + 1, changes)
      shadows[uri] = shadow
      versions[uri] = version + 1

      if notifications % Self.checkInterval == 0 || edits == Self.editsPerEncoding {
        let problems = try check(daemon, shadows: shadows, versions: versions)
        if !problems.isEmpty {
          XCTFail(
            "\(encoding.rawValue), after \(edits) edits: \(problems.joined(separator: "; "))\n"
              + "recent edits:\n" + recent.joined(separator: "\n"))
          coverage.edits = edits
          return coverage
        }
      }
    }
    XCTAssertEqual(try daemon.shutdownAndExit(), 0)
    coverage.edits = edits
    return coverage
  }

  /// Compares every document with its shadow; returns the differences.
  private func check(_ daemon: TestSession, shadows: [String: TestText], versions: [String: Int]) throws
    -> [String]
  {
    var problems: [String] = []
    for (uri, shadow) in shadows.sorted(by: { $0.key < $1.key }) {
      let info = try daemon.info(uri)
      if info["text"]?.stringValue != shadow.text {
        problems.append(
          "\(uri): text differs: daemon \(info["text"].map { "\($0)" } ?? "nil") shadow \(JSONValue.string(shadow.text))"
        )
      }
      if info["version"] != JSONValue(versions[uri] ?? -1) {
        problems.append("\(uri): version \(info["version"] ?? nil)")
      }
      if info["lineCount"] != JSONValue(shadow.lineCount) {
        problems.append("\(uri): lineCount \(info["lineCount"] ?? nil), expected \(shadow.lineCount)")
      }
      if info["utf8Length"] != JSONValue(shadow.utf8Length) {
        problems.append("\(uri): utf8Length \(info["utf8Length"] ?? nil), expected \(shadow.utf8Length)")
      }
    }
    let unsolicited = daemon.client.reader.takePending()
    if !unsolicited.isEmpty { problems.append("unexpected messages: \(unsolicited)") }
    return problems
  }

  /// A random change, applied to `shadow`, with its description.
  private func randomChange(
    _ shadow: inout TestText, encoding: PositionEncoding, coverage: inout Coverage,
    using random: inout SeededGenerator
  ) -> (JSONValue, String) {
    let size = shadow.scalars.count
    let roll = Int.random(in: 0..<100, using: &random)
    // Keep documents in a useful size range: shrink big ones.
    let deleteBias = size > 3000 ? 30 : 0

    if roll < 1 {
      let text = random.text(Self.pieces, lengths: 0...40)
      shadow.replaceAll(with: text)
      coverage.fullChanges += 1
      return (fullChange(text), "full \(JSONValue.string(text))")
    }
    let start = randomIndex(in: shadow, from: 0, using: &random)
    let end: Int
    let text: String
    if roll < 45 - deleteBias {  // insertion
      end = start
      text = random.text(Self.pieces, lengths: 1...4)
    } else {
      let longest = Int.random(in: 0..<10, using: &random) == 0 ? 400 : 30
      end = randomIndex(in: shadow, from: start, upTo: min(size, start + longest), using: &random)
      text = roll < 75 ? "" : random.text(Self.pieces, lengths: 1...4)
    }
    var from = shadow.position(of: start, in: encoding)!
    var to = shadow.position(of: end, in: encoding)!
    // Now and then address a point the specification normalises: past the
    // end of a line (clamped) or inside a character (moved to its start).
    if Int.random(in: 0..<10, using: &random) == 0 {
      let written = (from, to)
      to = skew(to, at: end, in: shadow, encoding: encoding, using: &random)
      if start < end { from = skew(from, at: start, in: shadow, encoding: encoding, using: &random) }
      if written.0 != from || written.1 != to { coverage.skewed += 1 }
    }
    let json = change(from.line, from.character, to.line, to.character, text)
    let removed = shadow.scalars[start..<end]
    shadow.replace(start..<end, with: text)

    let inserted = Array(text.unicodeScalars)
    if from.line != to.line || inserted.contains(where: { $0 == "\n" || $0 == "\r" }) { coverage.multiLine += 1 }
    if (removed + inserted).contains(where: { $0.value > 0xFFFF }) { coverage.astral += 1 }
    // A CR and an LF brought together at either edge of the replacement.
    for edge in [start, start + inserted.count] where edge > 0 && edge < shadow.scalars.count {
      if shadow.scalars[edge - 1] == "\r", shadow.scalars[edge] == "\n" { coverage.crlfJoins += 1 }
    }
    return (json, "\(from)-\(to) \(JSONValue.string(text))")
  }

  /// A position that designates the same point as `index` but is written
  /// past the line's end or inside the character there.
  private func skew(
    _ position: (line: Int, character: Int), at index: Int, in shadow: TestText, encoding: PositionEncoding,
    using random: inout SeededGenerator
  ) -> (line: Int, character: Int) {
    if position.character == shadow.lineWidth(position.line, in: encoding) {
      return (position.line, position.character + Int.random(in: 1...1000, using: &random))
    }
    let width = encoding.units(of: shadow.scalars[index])
    if width > 1 {
      return (position.line, position.character + Int.random(in: 1..<width, using: &random))
    }
    return position
  }

  /// A random scalar index in `from...upTo` that an LSP position can name
  /// (not between the CR and LF of a CRLF).
  private func randomIndex(
    in shadow: TestText, from: Int, upTo: Int? = nil, using random: inout SeededGenerator
  ) -> Int {
    let upper = upTo ?? shadow.scalars.count
    var index = Int.random(in: from...upper, using: &random)
    while index > from, index < shadow.scalars.count, shadow.scalars[index] == "\n",
      shadow.scalars[index - 1] == "\r"
    {
      index -= 1
    }
    return index
  }
}
