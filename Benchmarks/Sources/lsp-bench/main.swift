// lsp-bench: the real bidi-lsp daemon over stdio on large documents (issue 4,
// "Large files"): open-to-answer time beside jansson's decode of the same
// message, edit + visualOrder latency on a 1k- and a 1M-line document, peak
// resident memory, and a linearity check on one long line.
// See Benchmarks/README.md for what each figure means.

import BenchJansson
import BenchmarkSupport
import BidiCorpus
import Glibc

guard let options = LSPBenchOptions(Array(CommandLine.arguments.dropFirst())) else { exit(2) }
guard access(options.daemon, X_OK) == 0 else {
  print(
    "lsp-bench: no daemon at \(options.daemon); build it with `swift build -c release` "
      + "in the repository root, or pass --daemon PATH")
  exit(2)
}

print("lsp-bench: \(options.daemon), position encoding utf-16, hazard rules \(options.hazards ? "on" : "off")")
print("")

do {
  if options.openMegabytes > 0 {
    var results: [OpenResult] = []
    for _ in 0..<options.openRuns {
      results.append(try measureOpen(megabytes: options.openMegabytes, options: options))
    }
    // The table shows the run of the median ratio; every run's ratio follows it.
    let ratios = results.map { $0.openToAnswer / $0.decode }
    let result = results.sorted { $0.openToAnswer / $0.decode < $1.openToAnswer / $1.decode }[results.count / 2]
    print(
      "Open: didOpen of a \(fixed(result.documentBytes / 1e6, 1)) MB mixed document "
        + "(\(result.lines) lines), then bidi/visualOrder of its last line")
    var table = Table(["measure", "value", "ratio", "target"])
    table.add(["jansson json_loadb of the didOpen message", fixed(result.decode, 3) + " s", "", ""])
    table.add([
      "didOpen written → answer on last line", fixed(result.openToAnswer, 3) + " s",
      fixed(result.openToAnswer / result.decode, 2) + "x decode", "<= 1.25x",
    ])
    table.add([
      "daemon peak RSS (VmHWM) at the answer", fixed(result.peakRSS / 1e6, 1) + " MB",
      fixed(result.peakRSS / result.documentBytes, 2) + "x document", "<= 4x",
    ])
    table.add([
      "didOpen written → first publishDiagnostics", fixed(result.openToDiagnostics, 3) + " s",
      fixed(result.openToDiagnostics / result.decode, 2) + "x decode", "",
    ])
    table.add([
      "daemon peak RSS (VmHWM) after that", fixed(result.peakRSSAfterScan / 1e6, 1) + " MB",
      fixed(result.peakRSSAfterScan / result.documentBytes, 2) + "x document", "<= 4x",
    ])
    print(table.render())
    print(
      "hazard scan: \(result.diagnostics) diagnostics published "
        + "(\(fixed(Double(result.diagnosticsBytes) / 1e6, 2)) MB of notifications)")
    if results.count > 1 {
      print(
        "open → answer ÷ decode in each of \(results.count) runs: "
          + ratios.map { fixed($0, 2) + "x" }.joined(separator: ", ") + " (the table shows the median run)")
    }
    print("")
  }

  if !options.lineCounts.isEmpty {
    print(
      "Latency: one-character edit in the middle line + bidi/visualOrder of that line, "
        + "\(options.repetitions) repetitions after \(options.warmUp) warm-up")
    var table = Table([
      "document", "MB", "p50 ms", "p99 ms", "max ms", "peak RSS MB", "RSS/doc", "diagnostics", "published",
      "KB each",
    ])
    var p99s: [Double] = []
    var publishTable = Table([
      "document", "reps with a publish", "their p50 ms", "their max ms", "p99 ms of the others",
    ])
    var slowestTable = Table(["document", "slowest ms", "repetition", "waited behind"])
    for lines in options.lineCounts {
      let result = try measureLatency(lines: lines, options: options)
      publishTable.add([
        "\(lines) lines", "\(result.withPublish.count)",
        result.withPublish.isEmpty ? "-" : fixed(percentile(result.withPublish, 50) * 1e3, 3),
        result.withPublish.isEmpty ? "-" : fixed((result.withPublish.max() ?? 0) * 1e3, 3),
        result.p99WithoutPublish.map { fixed($0 * 1e3, 3) } ?? "-",
      ])
      p99s.append(result.p99)
      let behind = result.slowest.waitedBehind
      slowestTable.add([
        "\(lines) lines", fixed(result.slowest.seconds * 1e3, 3), "\(result.slowest.repetition)",
        behind.count == 0
          ? "nothing visible (no publish before its answer)"
          : "idle hazard rescan + \(behind.count) publishDiagnostics (\(fixed(Double(behind.bytes) / 1e3, 1)) KB)",
      ])
      table.add([
        "\(lines) lines", fixed(result.documentBytes / 1e6, 1), fixed(result.p50 * 1e3, 3),
        fixed(result.p99 * 1e3, 3), fixed(result.max * 1e3, 3), fixed(result.peakRSS / 1e6, 1),
        fixed(result.peakRSS / result.documentBytes, 2) + "x", "\(result.diagnostics)", "\(result.published.count)",
        fixed(Double(result.published.bytes) / Double(max(result.published.count, 1)) / 1e3, 1),
      ])
    }
    print(table.render())
    print(
      "diagnostics: in the document after its first hazard scan (waited for before the repetitions); "
        + "published: publishDiagnostics notifications read during the timed repetitions, KB each on average")
    print("")
    print(
      "The same repetitions, split by whether a publishDiagnostics (the daemon's idle-time hazard "
        + "rescan of the previous edit) arrived before the answer")
    print(publishTable.render())
    print("The slowest timed repetition, and the background work it waited behind")
    print(slowestTable.render())
    if p99s.count >= 2, let first = p99s.first, let last = p99s.last {
      print(
        "p99(\(options.lineCounts.last!) lines) / p99(\(options.lineCounts.first!) lines) = "
          + "\(fixed(last / first, 2))x (target <= 2x)")
    }
    print("")
  }

  if options.overrides > 0 {
    let result = try measureOverrideLine(overrides: options.overrides, options: options)
    print(
      "Unclosed overrides: a line of \(options.overrides) unclosed RLO (\(result.hazards) hazards) edited, "
        + "then, \(Int(overrideRequestDelay * 1e3)) ms later, bidi/visualOrder of another line; "
        + "\(result.samples.count) repetitions")
    var table = Table(["measure", "value", "target"])
    table.add(["follow-up request p50", fixed(percentile(result.samples, 50) * 1e3, 3) + " ms", ""])
    table.add(["follow-up request max", fixed((result.samples.max() ?? 0) * 1e3, 3) + " ms", "< 100 ms"])
    table.add(["diagnostics per publish", "\(result.diagnosticsPerPublish)", ""])
    table.add(["bytes per publish", fixed(Double(result.bytesPerPublish) / 1e3, 1) + " KB", ""])
    print(table.render())
    print("")
  }

  if options.longLineMegabytes > 0 {
    let small = try measureLongLine(megabytes: options.longLineMegabytes / 10, options: options)
    let large = try measureLongLine(megabytes: options.longLineMegabytes, options: options)
    print("Long line: didOpen of a one-line document, then bidi/visualOrder of that line")
    var table = Table(["line", "open → answer s", "answer again s"])
    for result in [small, large] {
      table.add([
        "\(fixed(result.documentBytes / 1e6, 1)) MB", fixed(result.openToAnswer, 3), fixed(result.again, 3),
      ])
    }
    print(table.render())
    print(
      "ratio for 10x the text: open → answer \(fixed(large.openToAnswer / small.openToAnswer, 1))x, "
        + "answer again \(fixed(large.again / small.again, 1))x (linear ≈ 10x, quadratic ≈ 100x)")
    print("")
  }

  try runLocalizationScenarios(options)
} catch {
  print("lsp-bench: \(error)")
  exit(1)
}
