// bidi-bench: UAX #9 throughput of bidi-lsp's UnicodeBidi beside ICU's ubidi
// and GNU FriBidi, on the same generated text in the same run.
// See Benchmarks/README.md for what each column means.

import BenchmarkSupport
import BidiCorpus
import CFriBidi
import CICU
import Glibc

guard let options = Options(Array(CommandLine.arguments.dropFirst())) else { exit(2) }
if options.l3 {
  reportCombiningMarks(options.kinds, megabytes: options.megabytes)
  exit(0)
}
/// The clock every engine's runs are timed with.
func readClock() -> Double { options.cpuClock ? threadCPUTime() : now() }

let engineTypes: [any BidiEngine.Type] = [OursEngine.self, ICUEngine.self, FriBidiEngine.self].filter {
  options.engines.isEmpty || options.engines.contains($0.name)
}

/// Median timings of one engine on one corpus, in seconds.
struct Timing {
  var conversion = 0.0
  var bidi = 0.0
  var total = 0.0
}

/// A corpus, whole paragraphs or wrapped into display lines.
struct Workload {
  var name: String
  var corpus: Corpus
  var breaks: LineBreaks?

  var displayLines: Int {
    breaks?.lineCount ?? corpus.paragraphs.count
  }
}

struct CorpusResult {
  var name: String
  var displayLines: Int
  var corpus: Corpus
  var mixed: Int
  var timings: [String: Timing]
  var checksums: [String: UInt64]
  var unstable: [String]
  var failures: Int
  var disagreements: Disagreements
}

print(
  "bidi-bench: levels + visual map of every display line, auto direction; a paragraph is one display line, "
    + "or wrapped after a space at \(options.wrap) columns in *-wrap rows")
print(
  "ICU \(U_ICU_VERSION), FriBidi \(FRIBIDI_VERSION); \(fixed(options.megabytes, 1)) MB per corpus, "
    + "median of \(options.repetitions) runs (\(options.cpuClock ? "thread CPU time" : "wall clock")); "
    + "MB = 10^6 bytes of UTF-8 input")
print("")

var workloads: [Workload] = []
for kind in options.kinds {
  let corpus = Corpus.generate(kind, bytes: Int(options.megabytes * 1_000_000))
  workloads.append(Workload(name: kind.rawValue, corpus: corpus))
  if kind == .prose && options.wrap > 0 {
    let breaks = LineBreaks(corpus: corpus, width: options.wrap)
    workloads.append(Workload(name: "prose-wrap\(options.wrap)", corpus: corpus, breaks: breaks))
  }
}

var results: [CorpusResult] = []
for workload in workloads {
  let corpus = workload.corpus
  let engines = engineTypes.map { $0.init(corpus: corpus, breaks: workload.breaks) }
  var reference: [Checksum] = []
  for engine in engines {  // warm-up, and the checksum every repetition must give again
    engine.convert()
    reference.append(engine.run())
  }
  var samples = [[Timing]](repeating: [], count: engines.count)
  var unstable: Set<String> = []
  for _ in 0..<options.repetitions {
    for (i, engine) in engines.enumerated() {
      let t0 = readClock()
      if type(of: engine).needsConversion { engine.convert() }
      let t1 = readClock()
      let checksum = engine.run()
      let t2 = readClock()
      if checksum != reference[i] { unstable.insert(type(of: engine).name) }
      samples[i].append(Timing(conversion: t1 - t0, bidi: t2 - t1, total: t2 - t0))
    }
  }
  var timings: [String: Timing] = [:]
  var checksums: [String: UInt64] = [:]
  for (i, engine) in engines.enumerated() {
    let name = type(of: engine).name
    timings[name] = Timing(
      conversion: median(samples[i].map(\.conversion)),
      bidi: median(samples[i].map(\.bidi)),
      total: median(samples[i].map(\.total)))
    checksums[name] = reference[i].value
  }
  let mixed = (engines.first { $0 is ICUEngine } as? ICUEngine)?.mixedParagraphs ?? 0
  results.append(
    CorpusResult(
      name: workload.name, displayLines: workload.displayLines, corpus: corpus, mixed: mixed, timings: timings,
      checksums: checksums,
      unstable: unstable.sorted(), failures: engines.reduce(0) { $0 + $1.failures },
      disagreements: compare(engines, corpus: corpus, sample: workload.breaks == nil ? options.sample : 0)))
  print("  measured \(workload.name)")
}
print("")
report(results, engineNames: engineTypes.map { $0.name }, explain: options.explain)
