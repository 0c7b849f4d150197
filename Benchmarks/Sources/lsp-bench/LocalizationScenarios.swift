import BenchJansson
import BenchmarkSupport

// Localization documents (contract §7, issue 9): an edit + naturalDirection
// of the edited value in a large `.strings` and `.po` file beside a small
// one, and open → first answer of a large file beside the same text opened
// as plain text.

/// A generated localization file: `entries` Arabic values, and the line of
/// the middle one's value with a UTF-16 offset inside its text.
struct LocalizationDocument {
  enum Format: String, CaseIterable {
    case strings, po
  }

  var format: Format
  var text: [UInt8]
  var editLine: Int
  var editColumn: Int
  var lastValueLine: Int

  init(_ format: Format, entries: Int) {
    self.format = format
    var text = ""
    var line = 0
    editLine = 0
    lastValueLine = 0
    let middle = entries / 2
    // Values with no finding (right to left as written and filled), so that
    // what is measured is the index and the request, not a publish of
    // `entries` diagnostics.
    for index in 0..<entries {
      switch format {
      case .strings:
        if index == middle { editLine = line }
        lastValueLine = line
        text += "\"key.\(index)\" = \"قيمة رقم \(index) %@\";\n"
        line += 1
      case .po:
        if index == middle { editLine = line + 1 }
        lastValueLine = line + 1
        text += "msgid \"key.\(index)\"\nmsgstr \"قيمة رقم \(index) %s\"\n\n"
        line += 3
      }
    }
    self.text = Array(text.utf8)
    // Inside the value, after its first word: `"key.N" = "` or `msgstr "`, then 3 letters.
    editColumn = (format == .strings ? "\"key.\(middle)\" = \"".utf16.count : "msgstr \"".utf16.count) + 3
  }

  var uri: String { format == .strings ? "file:///bench/ar.lproj/Localizable.strings" : "file:///bench/ar/app.po" }
}

extension Messages {
  static func didOpen(text: [UInt8], uri: String, languageId: String) -> [UInt8] {
    var body = Array(
      ("{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":"
        + "{\"uri\":\"\(uri)\",\"languageId\":\"\(languageId)\",\"version\":1,\"text\":").utf8)
    body += jsonString(text[...])
    body += Array("}}}".utf8)
    return body
  }

  /// `bidi/naturalDirection` of the paragraphs (values) touching `line`.
  static func naturalDirection(id: Int, line: Int, lines: Int = 1, uri: String) -> [UInt8] {
    Array(
      ("{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"bidi/naturalDirection\",\"params\":{\"textDocument\":"
        + "{\"uri\":\"\(uri)\"},\"range\":{\"start\":{\"line\":\(line),\"character\":0},"
        + "\"end\":{\"line\":\(line + lines),\"character\":0}}}}").utf8)
  }
}

extension Session {
  /// Queues `bidi/naturalDirection` of `line` and waits for an answer with
  /// at least one paragraph (a value's entry in a localization document).
  func naturalDirection(line: Int, lines: Int = 1, uri: String) throws {
    let id = nextID()
    connection.enqueue(body: Messages.naturalDirection(id: id, line: line, lines: lines, uri: uri))
    let result = try connection.waitForResponse(id: id)
    defer { if let result { bench_json_release(result) } }
    guard let paragraphs = json_object_get(result, "paragraphs"), json_array_size(paragraphs) >= 1 else {
      throw DaemonError(description: "bidi/naturalDirection of line \(line) answered without paragraphs")
    }
  }
}

struct LocalizationLatency {
  var p50: Double
  var p99: Double
}

/// Opens a localization file of `entries` values, then repeatedly inserts
/// (or deletes again) one Arabic letter inside the middle value and asks
/// for that value's natural direction; times each edit + answer.
func measureLocalizationLatency(
  _ format: LocalizationDocument.Format, entries: Int, options: LSPBenchOptions
) throws -> LocalizationLatency {
  let document = LocalizationDocument(format, entries: entries)
  let session = try Session(options: options)
  session.connection.enqueue(
    body: Messages.didOpen(text: document.text, uri: document.uri, languageId: format.rawValue))
  try session.naturalDirection(line: document.editLine, uri: document.uri)
  _ = try session.connection.waitForDiagnostics(version: 1)
  var samples: [Double] = []
  var version = 1
  for repetition in 0..<(options.warmUp + options.repetitions) {
    version += 1
    let inserting = repetition % 2 == 0
    let column = document.editColumn
    let change = Messages.didChange(
      version: version, line: document.editLine, start: column, end: inserting ? column : column + 1,
      text: inserting ? "ب" : "", uri: document.uri)
    let t0 = now()
    session.connection.enqueue(body: change)
    try session.naturalDirection(line: document.editLine, uri: document.uri)
    if repetition >= options.warmUp { samples.append(now() - t0) }
  }
  try session.close()
  return LocalizationLatency(p50: percentile(samples, 50), p99: percentile(samples, 99))
}

/// didOpen written → the first naturalDirection answer, the file opened as
/// what it is and as plain text (median of `runs`): on the first screen
/// (lines 0..<`screenLines`, what an editor asks for on open) and on the
/// last value (which a lazily read index must read the whole file for).
func measureLocalizationOpen(
  _ format: LocalizationDocument.Format, entries: Int, runs: Int, options: LSPBenchOptions
) throws -> (screen: (localized: Double, plain: Double), last: (localized: Double, plain: Double)) {
  let document = LocalizationDocument(format, entries: entries)
  var samples: [[Double]] = Array(repeating: [], count: 4)
  for _ in 0..<runs {
    for (slot, (asPlain, onScreen)) in [(false, true), (true, true), (false, false), (true, false)].enumerated() {
      let uri = asPlain ? "file:///bench/document.txt" : document.uri
      let framed = DaemonConnection.frame(
        Messages.didOpen(text: document.text, uri: uri, languageId: asPlain ? "plaintext" : format.rawValue))
      let session = try Session(options: options)
      let t0 = now()
      session.connection.enqueue(framed: framed)
      if onScreen {
        try session.naturalDirection(line: 0, lines: screenLines, uri: uri)
      } else {
        try session.naturalDirection(line: document.lastValueLine, uri: uri)
      }
      let elapsed = now() - t0
      try session.close()
      samples[slot].append(elapsed)
    }
  }
  return ((median(samples[0]), median(samples[1])), (median(samples[2]), median(samples[3])))
}

/// The lines of the first screen an editor asks for on open.
let screenLines = 60

/// Runs the localization scenarios and prints their tables.
func runLocalizationScenarios(_ options: LSPBenchOptions) throws {
  guard options.localizationEntries.count >= 2, let small = options.localizationEntries.first,
    let large = options.localizationEntries.last
  else { return }
  print(
    "Localization: one-character edit inside the middle value + bidi/naturalDirection of it (values mode), "
      + "\(options.repetitions) repetitions after \(options.warmUp) warm-up")
  var table = Table(["file", "entries", "p50 ms", "p99 ms", "p99 ratio", "target"])
  for format in LocalizationDocument.Format.allCases {
    let first = try measureLocalizationLatency(format, entries: small, options: options)
    let second = try measureLocalizationLatency(format, entries: large, options: options)
    table.add([".\(format.rawValue)", "\(small)", fixed(first.p50 * 1e3, 3), fixed(first.p99 * 1e3, 3), "", ""])
    table.add([
      ".\(format.rawValue)", "\(large)", fixed(second.p50 * 1e3, 3), fixed(second.p99 * 1e3, 3),
      fixed(second.p99 / first.p99, 2) + "x", "<= 2x",
    ])
  }
  print(table.render())
  print("")
  print(
    "Localization: didOpen written → first naturalDirection answer, on the first screen (lines 0..<\(screenLines)) "
      + "and on the last value, median of 3")
  var open = Table(["file", "entries", "answer on", "as localization s", "as plain text s", "ratio", "target"])
  for format in LocalizationDocument.Format.allCases {
    let result = try measureLocalizationOpen(format, entries: large, runs: 3, options: options)
    for (name, pair, target) in [("first screen", result.screen, "<= 1.5x"), ("last value", result.last, "")] {
      open.add([
        ".\(format.rawValue)", "\(large)", name, fixed(pair.localized, 3), fixed(pair.plain, 3),
        fixed(pair.localized / pair.plain, 2) + "x", target,
      ])
    }
  }
  print(open.render())
  print("")
}
