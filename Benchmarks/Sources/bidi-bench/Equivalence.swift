import BidiCorpus

/// Paragraph counts where two implementations disagree, over a sample.
struct Disagreements {
  var sampled = 0
  /// Keyed by "A/B": paragraphs whose levels differ (characters X9 removes ignored).
  var levels: [String: Int] = [:]
  /// Keyed by "A/B": paragraphs whose visual order differs (X9-removed ignored).
  var order: [String: Int] = [:]
  /// The first disagreement of each pair, described (for `--explain`).
  var examples: [String: String] = [:]
}

/// Compares every pair of engines on an evenly spread sample of paragraphs.
/// FriBidi's classes decide which characters X9 removes (their levels are a
/// convention, not a result, and differ by design between implementations).
func compare(_ engines: [any BidiEngine], corpus: Corpus, sample: Int) -> Disagreements {
  var result = Disagreements()
  guard sample > 0, let fribidi = engines.first(where: { $0 is FriBidiEngine }) as? FriBidiEngine
  else { return result }
  let step = max(1, corpus.paragraphs.count / sample)
  for index in stride(from: 0, to: corpus.paragraphs.count, by: step) {
    result.sampled += 1
    let removed = fribidi.removedByX9(paragraph: index)
    let answers = engines.map { $0.analyse(paragraph: index) }
    for a in answers.indices {
      for b in answers.indices where b > a {
        let key = "\(type(of: engines[a]).name)/\(type(of: engines[b]).name)"
        let (x, y) = (answers[a], answers[b])
        let levelsAgree =
          x.levels.count == y.levels.count
          && x.levels.indices.allSatisfy {
            removed.indices.contains($0) && removed[$0] || x.levels[$0] == y.levels[$0]
          }
        let kept = { (order: [Int]) in order.filter { !(removed.indices.contains($0) && removed[$0]) } }
        let orderAgrees = kept(x.order) == kept(y.order)
        if !levelsAgree { result.levels[key, default: 0] += 1 }
        if !orderAgrees { result.order[key, default: 0] += 1 }
        if (!levelsAgree || !orderAgrees) && result.examples[key] == nil {
          result.examples[key] = describe(
            corpus.text[corpus.paragraphs[index]], removed: removed,
            (type(of: engines[a]).name, x), (type(of: engines[b]).name, y))
        }
      }
    }
  }
  return result
}

/// The paragraph with its controls spelled out, and both answers: levels
/// (x for removed characters) and visual order, in code points.
private func describe(
  _ utf8: ArraySlice<UInt8>, removed: [Bool], _ a: (String, Analysis), _ b: (String, Analysis)
) -> String {
  let names: [UInt32: String] = [
    0x200E: "LRM", 0x200F: "RLM", 0x061C: "ALM", 0x202A: "LRE", 0x202B: "RLE", 0x202C: "PDF",
    0x202D: "LRO", 0x202E: "RLO", 0x2066: "LRI", 0x2067: "RLI", 0x2068: "FSI", 0x2069: "PDI",
  ]
  var text = ""
  for scalar in String(decoding: utf8, as: UTF8.self).unicodeScalars {
    if let name = names[scalar.value] { text += "<\(name)>" } else { text.unicodeScalars.append(scalar) }
  }
  func levels(_ analysis: Analysis) -> String {
    analysis.levels.indices.map {
      removed.indices.contains($0) && removed[$0] ? "x" : String(analysis.levels[$0])
    }.joined()
  }
  return "  text: \(text)\n  \(a.0) levels: \(levels(a.1))\n  \(b.0) levels: \(levels(b.1))\n"
    + "  \(a.0) order: \(a.1.order.map(String.init).joined(separator: " "))\n"
    + "  \(b.0) order: \(b.1.order.map(String.init).joined(separator: " "))"
}
