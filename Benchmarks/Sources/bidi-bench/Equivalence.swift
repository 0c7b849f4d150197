import BidiCorpus

/// Paragraph counts where two implementations disagree, over a sample.
struct Disagreements {
  var sampled = 0
  /// Keyed by "A/B": paragraphs whose levels differ (characters X9 removes ignored).
  var levels: [String: Int] = [:]
  /// Keyed by "A/B": paragraphs whose visual order differs (X9-removed ignored).
  var order: [String: Int] = [:]
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
        let levelsAgree = x.levels.count == y.levels.count && x.levels.indices.allSatisfy {
          removed.indices.contains($0) && removed[$0] || x.levels[$0] == y.levels[$0]
        }
        let kept = { (order: [Int]) in order.filter { !(removed.indices.contains($0) && removed[$0]) } }
        if !levelsAgree { result.levels[key, default: 0] += 1 }
        if kept(x.order) != kept(y.order) { result.order[key, default: 0] += 1 }
      }
    }
  }
  return result
}
