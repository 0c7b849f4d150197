import BenchmarkSupport
import Glibc

/// How long after the edit the follow-up request is sent: long enough that
/// the daemon has started its idle rescan of the edited line.
let overrideRequestDelay = 0.02

struct OverrideLineResult {
  /// Edit → answer of the follow-up request, per repetition.
  var samples: [Double]
  /// Hazards on the line (each RLO is bidi.override and bidi.unpaired).
  var hazards: Int
  var diagnosticsPerPublish: Int
  var bytesPerPublish: Int
}

/// Issue 10 finding 6 / issue 11: a document whose middle line holds
/// `overrides` unclosed RLO. Each repetition edits that line, waits
/// `overrideRequestDelay`, then times `bidi/visualOrder` of the first line:
/// what the request waits behind is the idle rescan and publish of the
/// edited line.
func measureOverrideLine(overrides: Int, options: LSPBenchOptions, repetitions: Int = 20) throws
  -> OverrideLineResult
{
  let first = Array("let x = 1 שלום".utf8)
  let text =
    first + Array("\nx = 1 ".utf8) + Array(repeating: Array("\u{202E}".utf8), count: overrides).flatMap { $0 }
    + Array(" y\nmore text\n".utf8)
  let session = try Session(options: options)
  session.connection.enqueue(body: Messages.didOpen(text: text))
  let length = String(decoding: first, as: UTF8.self).utf16.count
  try session.visualOrder(line: 0, length: length)
  let diagnostics = try session.connection.waitForDiagnostics(version: 1)
  let before = session.published
  var samples: [Double] = []
  var version = 1
  for repetition in 0..<repetitions {
    version += 1
    let inserting = repetition % 2 == 0
    session.connection.enqueue(
      body: inserting
        ? Messages.didChange(version: version, line: 1, start: 0, end: 0, text: "z")
        : Messages.didChange(version: version, line: 1, start: 0, end: 1, text: ""))
    try session.connection.flush()
    let start = now()
    while now() - start < overrideRequestDelay { usleep(1_000) }
    let t0 = now()
    try session.visualOrder(line: 0, length: length)
    samples.append(now() - t0)
  }
  _ = try session.connection.waitForDiagnostics(version: version)
  let published = session.published - before
  try session.close()
  return OverrideLineResult(
    samples: samples, hazards: 2 * overrides, diagnosticsPerPublish: diagnostics,
    bytesPerPublish: published.bytes / max(published.count, 1))
}
