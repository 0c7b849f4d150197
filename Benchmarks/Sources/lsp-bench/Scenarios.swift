import BenchJansson
import BenchmarkSupport
import BidiCorpus

/// An initialised daemon with a request counter.
final class Session {
  let connection: DaemonConnection
  private var lastID = 0

  init(options: LSPBenchOptions) throws {
    connection = try DaemonConnection(executable: options.daemon, logPath: options.daemonLog)
    let id = nextID()
    connection.enqueue(body: Messages.initialize(id: id, hazards: options.hazards))
    if let result = try connection.waitForResponse(id: id, timeout: 60) { bench_json_release(result) }
    connection.enqueue(body: Messages.initialized)
  }

  func nextID() -> Int {
    lastID += 1
    return lastID
  }

  /// Queues `bidi/visualOrder` of `line` and waits for its answer, which must
  /// hold at least one paragraph.
  func visualOrder(line: Int, length: Int, uri: String = Messages.uri) throws {
    let id = nextID()
    connection.enqueue(body: Messages.visualOrder(id: id, line: line, length: length, uri: uri))
    let result = try connection.waitForResponse(id: id)
    defer { if let result { bench_json_release(result) } }
    let paragraphs = json_object_get(result, "paragraphs")
    guard let paragraphs, json_array_size(paragraphs) >= 1 else {
      throw DaemonError(description: "bidi/visualOrder of line \(line) answered without paragraphs")
    }
  }

  var peakRSS: Double {
    Double(connection.memory("VmHWM") ?? 0)
  }

  /// The `textDocument/publishDiagnostics` notifications read so far.
  var published: NotificationTally {
    connection.notifications["textDocument/publishDiagnostics"] ?? NotificationTally()
  }

  func close() throws {
    let status = try connection.shutDown(id: nextID())
    if status != 0 { throw DaemonError(description: "the daemon exited with status \(status)") }
  }
}

extension Corpus {
  /// Length of paragraph `index` in UTF-16 units (the position encoding used).
  func utf16Length(_ index: Int) -> Int {
    String(decoding: text[paragraphs[index]], as: UTF8.self).utf16.count
  }

  /// A UTF-16 offset near the middle of paragraph `index`, on a character boundary.
  func utf16Middle(_ index: Int) -> Int {
    let line = String(decoding: text[paragraphs[index]], as: UTF8.self)
    let half = line.utf16.count / 2
    var offset = 0
    for scalar in line.unicodeScalars {
      if offset >= half { break }
      offset += scalar.utf16.count
    }
    return offset
  }
}

// MARK: Open

struct OpenResult {
  var documentBytes: Double
  var lines: Int
  var decode: Double
  var openToAnswer: Double
  var peakRSS: Double
  /// From the first byte written to the first publishDiagnostics (the
  /// hazard scan of the whole document done), its diagnostics, the peak RSS
  /// then, and the size of that notification.
  var openToDiagnostics: Double
  var diagnostics: Int
  var peakRSSAfterScan: Double
  var diagnosticsBytes: Int
}

/// Opens a `megabytes` mixed document and times the answer to a request on its
/// last line; beside it, jansson's decode of the same didOpen message.
func measureOpen(megabytes: Double, options: LSPBenchOptions) throws -> OpenResult {
  let document = Corpus.mixedDocument(bytes: Int(megabytes * 1e6))
  var framed = DaemonConnection.frame(Messages.didOpen(text: document.text))
  let bodyStart = framed.count - (framed.firstIndex(of: 0x7B).map { framed.count - $0 } ?? 0)

  // The floor: jansson decoding that message, as the daemon must (median of 3).
  var decodes: [Double] = []
  for _ in 0..<3 {
    var error = json_error_t()
    let t0 = now()
    let json = framed.withUnsafeBytes {
      json_loadb(
        $0.baseAddress!.advanced(by: bodyStart).assumingMemoryBound(to: CChar.self),
        $0.count - bodyStart, bench_json_decode_flags(), &error)
    }
    decodes.append(now() - t0)
    guard let json else { throw DaemonError(description: "jansson cannot decode the didOpen message") }
    bench_json_release(json)
  }

  let session = try Session(options: options)
  let last = document.paragraphs.count - 1
  let length = document.utf16Length(last)
  let t0 = now()
  session.connection.enqueue(framed: framed)
  framed = []
  try session.visualOrder(line: last, length: length)
  let openToAnswer = now() - t0
  let peak = session.peakRSS
  // The hazard scan runs in idle slices after the answer; its end is the
  // first publishDiagnostics.
  let diagnostics = try session.connection.waitForDiagnostics(version: 1)
  let openToDiagnostics = now() - t0
  let peakAfterScan = session.peakRSS
  let published = session.published
  try session.close()
  return OpenResult(
    documentBytes: Double(document.text.count), lines: document.paragraphs.count,
    decode: median(decodes), openToAnswer: openToAnswer, peakRSS: peak,
    openToDiagnostics: openToDiagnostics, diagnostics: diagnostics, peakRSSAfterScan: peakAfterScan,
    diagnosticsBytes: published.bytes)
}

// MARK: Latency

struct LatencyResult {
  var documentBytes: Double
  var p50: Double
  var p99: Double
  var max: Double
  var peakRSS: Double
  /// Diagnostics in the document after the first scan.
  var diagnostics: Int
  /// publishDiagnostics read during the timed repetitions.
  var published: NotificationTally
  /// The timed repetitions during which a publishDiagnostics (of the
  /// previous edit, sent while the daemon was idle) arrived before the
  /// answer, and the p99 of the others (nil when there are none).
  var withPublish: [Double]
  var p99WithoutPublish: Double?
  /// The slowest timed repetition: its time, its index, and the
  /// publishDiagnostics that arrived before its answer (the daemon's idle
  /// rescan and publish it waited behind; none when it waited behind
  /// nothing the client can see).
  var slowest: (seconds: Double, repetition: Int, waitedBehind: NotificationTally)
}

/// Opens a `lines`-line mixed document, then repeatedly inserts (or deletes
/// again) one Arabic letter in the middle of its middle line and asks for
/// that line's visual order; times each edit + answer.
func measureLatency(lines: Int, options: LSPBenchOptions) throws -> LatencyResult {
  let document = Corpus.mixedDocument(lines: lines)
  var line = document.paragraphs.count / 2
  while line + 1 < document.paragraphs.count && document.paragraphs[line].isEmpty { line += 1 }
  let length = document.utf16Length(line)
  let column = document.utf16Middle(line)

  let session = try Session(options: options)
  session.connection.enqueue(body: Messages.didOpen(text: document.text))
  try session.visualOrder(line: line, length: length)
  // Let the first hazard scan finish, so that every repetition sees the
  // daemon in the same state.
  let diagnostics = try session.connection.waitForDiagnostics(version: 1)

  var version = 1
  var publishedBefore = session.published
  var samples: [Double] = []
  samples.reserveCapacity(options.repetitions)
  var withPublish: [Double] = []
  var withoutPublish: [Double] = []
  var slowest = (seconds: 0.0, repetition: 0, waitedBehind: NotificationTally())
  for repetition in 0..<(options.warmUp + options.repetitions) {
    version += 1
    let inserting = repetition % 2 == 0
    let change =
      inserting
      ? Messages.didChange(version: version, line: line, start: column, end: column, text: "ب")
      : Messages.didChange(version: version, line: line, start: column, end: column + 1, text: "")
    let publishedBeforeRepetition = session.published
    let publishedCount = publishedBeforeRepetition.count
    let t0 = now()
    session.connection.enqueue(body: change)
    try session.visualOrder(line: line, length: inserting ? length + 1 : length)
    let elapsed = now() - t0
    if repetition >= options.warmUp {
      samples.append(elapsed)
      if elapsed > slowest.seconds {
        slowest = (elapsed, repetition - options.warmUp, session.published - publishedBeforeRepetition)
      }
      if session.published.count > publishedCount {
        withPublish.append(elapsed)
      } else {
        withoutPublish.append(elapsed)
      }
    } else {
      publishedBefore = session.published
    }
  }
  let published = session.published - publishedBefore
  let peak = session.peakRSS
  try session.close()
  return LatencyResult(
    documentBytes: Double(document.text.count), p50: percentile(samples, 50),
    p99: percentile(samples, 99), max: samples.max() ?? 0, peakRSS: peak,
    diagnostics: diagnostics, published: published,
    withPublish: withPublish, p99WithoutPublish: withoutPublish.isEmpty ? nil : percentile(withoutPublish, 99),
    slowest: slowest)
}

// MARK: Long line

struct LongLineResult {
  var documentBytes: Double
  var openToAnswer: Double
  var again: Double
}

/// Opens a one-line document of `megabytes` and times the first answer on
/// that line and a second one.
func measureLongLine(megabytes: Double, options: LSPBenchOptions) throws -> LongLineResult {
  let document = Corpus.singleLine(bytes: Int(megabytes * 1e6))
  let framed = DaemonConnection.frame(Messages.didOpen(text: document.text))
  let length = document.utf16Length(0)
  let session = try Session(options: options)
  let t0 = now()
  session.connection.enqueue(framed: framed)
  try session.visualOrder(line: 0, length: length)
  let t1 = now()
  try session.visualOrder(line: 0, length: length)
  let t2 = now()
  try session.close()
  return LongLineResult(documentBytes: Double(document.text.count), openToAnswer: t1 - t0, again: t2 - t1)
}
