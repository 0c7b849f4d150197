/// Command-line options of lsp-bench.
struct LSPBenchOptions {
  var daemon = LSPBenchOptions.defaultDaemon
  var daemonLog = "/dev/null"
  var openMegabytes = 100.0
  /// Times the open scenario is run, each with its own decode beside it.
  var openRuns = 1
  var lineCounts = [1_000, 1_000_000]
  var repetitions = 500
  var warmUp = 20
  var longLineMegabytes = 10.0
  /// Unclosed RLO on the line of the override scenario (0 skips it).
  var overrides = 100_000
  /// Whether the daemon's hazard rules stay on (the default) or are all
  /// turned off in `initializationOptions`, to see what the scan costs.
  var hazards = true
  /// Entry counts of the localization scenarios (`--l10n`: a small and a
  /// large file); empty skips them.
  var localizationEntries: [Int] = []

  /// `.build/release/bidi-lsp` of the package this one sits in.
  static var defaultDaemon: String {
    var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(4)  // Benchmarks/Sources/lsp-bench/LSPBenchOptions.swift
    return parts.joined(separator: "/") + "/.build/release/bidi-lsp"
  }

  static let usage = """
    usage: lsp-bench [--quick] [--daemon PATH] [--daemon-log PATH] [--open-mb MB] [--open-runs N]
                     [--lines N,N] [--reps N] [--long-line-mb MB] [--overrides N] [--hazards on|off]
      --quick            10 MB open, 1,000 and 100,000 lines, 100 repetitions, 1 MB long line
      --daemon PATH      the bidi-lsp executable (default: \(defaultDaemon))
      --daemon-log PATH  where the daemon's stderr goes (default /dev/null)
      --open-mb MB       size of the document opened whole (default 100; 0 skips)
      --open-runs N      open scenario runs, each beside its own jansson decode (default 1)
      --lines N,N        line counts of the latency documents (default 1000,1000000; "" skips)
      --reps N           timed edit + request repetitions per document (default 500)
      --long-line-mb MB  size of the long-line document; a tenth of it is measured too (default 10; 0 skips)
      --overrides N      unclosed RLO on the line of the override scenario (default 100000; 0 skips)
      --hazards on|off   off: initializationOptions turn every hazard rule off (default on)
      --l10n N,N         localization scenarios: .strings and .po files of N entries (e.g. 1000,100000)
    """

  init?(_ arguments: [String]) {
    var rest = arguments[...]
    func number(_ flag: String) -> Double? {
      guard let text = rest.popFirst(), let value = Double(text), value >= 0 else {
        print("lsp-bench: \(flag) needs a number\n\(LSPBenchOptions.usage)")
        return nil
      }
      return value
    }
    while let argument = rest.popFirst() {
      switch argument {
      case "--quick":
        openMegabytes = 10
        lineCounts = [1_000, 100_000]
        repetitions = 100
        warmUp = 10
        longLineMegabytes = 1
        overrides = 100_000
      case "--daemon":
        guard let path = rest.popFirst() else { return nil }
        daemon = path
      case "--daemon-log":
        guard let path = rest.popFirst() else { return nil }
        daemonLog = path
      case "--open-mb":
        guard let value = number(argument) else { return nil }
        openMegabytes = value
      case "--open-runs":
        guard let value = number(argument), value >= 1 else { return nil }
        openRuns = Int(value)
      case "--overrides":
        guard let value = number(argument) else { return nil }
        overrides = Int(value)
      case "--long-line-mb":
        guard let value = number(argument) else { return nil }
        longLineMegabytes = value
      case "--reps":
        guard let value = number(argument), value >= 1 else { return nil }
        repetitions = Int(value)
      case "--lines":
        guard let text = rest.popFirst() else { return nil }
        let counts = text.split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 }
        lineCounts = counts
      case "--l10n":
        guard let text = rest.popFirst() else { return nil }
        localizationEntries = text.split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 }
      case "--hazards":
        switch rest.popFirst() {
        case "on": hazards = true
        case "off": hazards = false
        default:
          print(LSPBenchOptions.usage)
          return nil
        }
      default:
        print(LSPBenchOptions.usage)
        return nil
      }
    }
  }
}
