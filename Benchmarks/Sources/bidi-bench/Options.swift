import BidiCorpus

/// Command-line options of bidi-bench.
struct Options {
  var megabytes = 4.0
  var repetitions = 7
  var sample = 2000
  /// Column width of the wrapped prose row (0: no wrapped row).
  var wrap = 80
  var kinds = Corpus.Kind.allCases
  /// Engine names to run (all when empty); for profiling one side.
  var engines: [String] = []
  /// Print the first disagreement of each pair of implementations.
  var explain = false
  /// Compare L3 (combining marks) with ICU instead of timing.
  var l3 = false
  /// Time with the thread's CPU clock instead of the monotonic wall clock.
  var cpuClock = false

  static let usage = """
    usage: bidi-bench [--quick] [--size MB] [--reps N] [--sample N] [--corpus NAME]...
      --quick        0.5 MB per corpus, 3 repetitions (a smoke run)
      --size MB      UTF-8 size of each generated corpus (default 4)
      --reps N       timed repetitions; the median is reported (default 7)
      --sample N     paragraphs per corpus in the equivalence check (default 2000)
      --wrap N       also measure prose wrapped into display lines at N columns (default 80; 0: off)
      --corpus NAME  only this corpus (repeatable): \
    \(Corpus.Kind.allCases.map(\.rawValue).joined(separator: ", "))
      --engine NAME  only this implementation (repeatable): ours, ICU, FriBidi
      --explain      print the first disagreement between each pair, per corpus
      --clock cpu    time each run by the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), not
                     the wall clock: less noisy on a shared machine (default: wall)
      --l3           no timing: compare our visual text with L3 (combining marks after
                     their base) with ICU's ubidi_writeReordered(UBIDI_KEEP_BASE_COMBINING)
    """

  /// Parses `arguments` (without the program name); nil after printing usage.
  init?(_ arguments: [String]) {
    var rest = arguments[...]
    var chosen: [Corpus.Kind] = []
    func value(_ flag: String) -> String? {
      guard let next = rest.popFirst() else {
        print("bidi-bench: \(flag) needs a value")
        return nil
      }
      return next
    }
    while let argument = rest.popFirst() {
      switch argument {
      case "--quick":
        megabytes = 0.5
        repetitions = 3
        sample = 500
      case "--size":
        guard let text = value(argument), let size = Double(text), size > 0 else { return nil }
        megabytes = size
      case "--reps":
        guard let text = value(argument), let count = Int(text), count > 0 else { return nil }
        repetitions = count
      case "--sample":
        guard let text = value(argument), let count = Int(text), count >= 0 else { return nil }
        sample = count
      case "--wrap":
        guard let text = value(argument), let width = Int(text), width >= 0 else { return nil }
        wrap = width
      case "--corpus":
        guard let text = value(argument), let kind = Corpus.Kind(rawValue: text) else {
          print(Options.usage)
          return nil
        }
        chosen.append(kind)
      case "--explain":
        explain = true
      case "--l3":
        l3 = true
      case "--clock":
        guard let text = value(argument), text == "cpu" || text == "wall" else {
          print(Options.usage)
          return nil
        }
        cpuClock = text == "cpu"
      case "--engine":
        guard let text = value(argument) else { return nil }
        engines.append(text)
      default:
        print(Options.usage)
        return nil
      }
    }
    if !chosen.isEmpty { kinds = chosen }
  }
}
