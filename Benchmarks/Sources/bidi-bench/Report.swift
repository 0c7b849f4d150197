import BenchmarkSupport

/// The name of our implementation's column; ratios are taken against it.
let oursName = "ours"

/// Prints the throughput, ratio and equivalence tables.
func report(_ results: [CorpusResult], engineNames: [String], explain: Bool) {
  let others = engineNames.filter { $0 != oursName }
  let hasOurs = engineNames.contains(oursName)

  func rate(_ bytes: Int, _ seconds: Double) -> String {
    fixed(Double(bytes) / 1e6 / seconds, 1)
  }

  print("Throughput, MB/s of UTF-8 input (conv = UTF-8 conversion alone, bidi = bidi loop alone)")
  var header = ["corpus", "MB", "paras", "lines", "mixed"]
  for name in others { header += ["\(name) conv", "\(name) bidi", "\(name) total"] }
  if hasOurs { header.append(oursName) }
  var throughput = Table(header)
  for result in results {
    let bytes = result.corpus.text.count
    var row = [
      result.name, fixed(Double(bytes) / 1e6, 2),
      String(result.corpus.paragraphs.count), String(result.displayLines),
      fixed(100 * Double(result.mixed) / Double(max(result.corpus.paragraphs.count, 1)), 1) + "%",
    ]
    for name in others {
      let t = result.timings[name] ?? Timing()
      row += [rate(bytes, t.conversion), rate(bytes, t.bidi), rate(bytes, t.total)]
    }
    if hasOurs { row.append(rate(bytes, result.timings[oursName]?.total ?? .nan)) }
    throughput.add(row)
  }
  print(throughput.render())
  print("")

  if hasOurs {
    print("Ratios, ours ÷ theirs in throughput (> 1 means ours is faster); \"+conv\" counts their UTF-8 conversion too")
    var header = ["corpus"]
    for name in others { header += ["ours/\(name)", "ours/\(name)+conv"] }
    var ratios = Table(header)
    for result in results {
      let ours = result.timings[oursName]?.total ?? .nan
      var row = [result.name]
      for name in others {
        let t = result.timings[name] ?? Timing()
        row += [fixed(t.bidi / ours, 2) + "x", fixed(t.total / ours, 2) + "x"]
      }
      ratios.add(row)
    }
    print(ratios.render())
    print("")
  }

  var pairNames: [String] = []
  for a in engineNames.indices {
    for b in engineNames.indices where b > a { pairNames.append("\(engineNames[a])/\(engineNames[b])") }
  }
  print("Equivalence on a sample: paragraphs whose levels / visual order differ (X9-removed characters ignored)")
  var header2 = ["corpus", "sampled"]
  for pair in pairNames { header2 += ["\(pair) levels", "order"] }
  var equivalence = Table(header2)
  for result in results where result.disagreements.sampled > 0 {
    var row = [result.name, String(result.disagreements.sampled)]
    for pair in pairNames {
      row += [String(result.disagreements.levels[pair] ?? 0), String(result.disagreements.order[pair] ?? 0)]
    }
    equivalence.add(row)
  }
  print(equivalence.render())
  print("")
  if explain {
    for result in results {
      for (pair, example) in result.disagreements.examples.sorted(by: { $0.key < $1.key }) {
        print("\(result.name), first disagreement \(pair):\n\(example)\n")
      }
    }
  }

  for result in results {
    let sums = engineNames.map { "\($0) \(hex(result.checksums[$0] ?? 0))" }.joined(separator: ", ")
    var line = "\(result.name): checksums \(sums)"
    if result.failures > 0 { line += "; \(result.failures) calls FAILED" }
    if !result.unstable.isEmpty {
      line += "; checksum changed between runs: \(result.unstable.joined(separator: ", "))"
    }
    print(line)
  }
}

private func hex(_ value: UInt64) -> String {
  let digits = String(value, radix: 16)
  return String(repeating: "0", count: 16 - digits.count) + digits
}
