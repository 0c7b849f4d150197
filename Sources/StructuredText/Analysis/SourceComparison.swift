/// A placeholder as a translation is compared with its source by
/// (`bidi.placeholderMismatch`): its normalized spelling (`%1$@` for
/// `%1$-5@`, `{name}` for `{ name, number }`, `x#1` for `<x id="1"/>`), as
/// the format's `sourceTokens(of:)` gives it, and whether it is unnumbered
/// (`%@`, `{}`), so that its place in the text decides which value fills it.
package struct PlaceholderToken: Hashable, Sendable {
  package var spelling: String
  package var isOrdered: Bool

  package init(_ spelling: String, isOrdered: Bool) {
    self.spelling = spelling
    self.isOrdered = isOrdered
  }
}

/// What of a text a translation must keep from its source: its
/// placeholders in order and its markup tags (`<b>`, `</b>`; void elements
/// such as `<br>` left out), normalized.
package struct SourceTokens: Hashable, Sendable {
  package var placeholders: [PlaceholderToken]
  package var markup: [String]

  package init(placeholders: [PlaceholderToken] = [], markup: [String] = []) {
    self.placeholders = placeholders
    self.markup = markup
  }

  package static let empty = SourceTokens()

  package var isEmpty: Bool { placeholders.isEmpty && markup.isEmpty }
}

/// The comparison of a translation with its source (Protocol/localization.md,
/// "Source pairing"): a placeholder of the source missing from the
/// translation (not in a plural branch, whose form for one number may
/// spell the number out), one the source does not have, unnumbered
/// placeholders in another order (their values swap at run time), markup
/// tags whose counts differ. Numbered and named placeholders may move
/// freely and be repeated; unnumbered printf placeholders on one side
/// compare with numbered ones on the other as the arguments they take
/// (`%@ %d` is `%1$@ %2$d`).
package enum SourceComparison {
  /// The finding's message, or nil when the translation matches.
  package static func mismatch(translation: SourceTokens, source: SourceTokens, isPluralBranch: Bool) -> String? {
    if translation == source { return nil }
    var parts: [String] = []
    var ours = translation.placeholders
    var theirs = source.placeholders
    numberPrintf(&ours, like: theirs)
    numberPrintf(&theirs, like: ours)
    // Named and numbered: as sets.
    let ourNamed = Set(ours.lazy.filter { !$0.isOrdered }.map(\.spelling))
    let theirNamed = Set(theirs.lazy.filter { !$0.isOrdered }.map(\.spelling))
    var missing = theirs.filter { !$0.isOrdered && !ourNamed.contains($0.spelling) }.map(\.spelling)
    var extra = ours.filter { !$0.isOrdered && !theirNamed.contains($0.spelling) }.map(\.spelling)
    // Unnumbered: as sequences.
    let ourOrdered = ours.filter(\.isOrdered).map(\.spelling)
    let theirOrdered = theirs.filter(\.isOrdered).map(\.spelling)
    if ourOrdered != theirOrdered {
      if ourOrdered.sorted() == theirOrdered.sorted() {
        parts.append(
          "its unnumbered placeholders \(listed(ourOrdered)) are in another order than the source's \(listed(theirOrdered)), which swaps their values at run time: number them (%1$@, {0}) or keep the source's order"
        )
      } else {
        var left = ourOrdered
        for spelling in theirOrdered {
          if let at = left.firstIndex(of: spelling) { left.remove(at: at) } else { missing.append(spelling) }
        }
        extra += left
      }
    }
    if isPluralBranch { missing = [] }
    missing = unique(missing)
    extra = unique(extra)
    if !missing.isEmpty {
      parts.insert("it lacks the source's placeholder\(missing.count == 1 ? "" : "s") \(listed(missing))", at: 0)
    }
    if !extra.isEmpty {
      let at = missing.isEmpty ? 0 : 1
      parts.insert(
        "it has the placeholder\(extra.count == 1 ? "" : "s") \(listed(extra)), which the source does not have", at: at)
    }
    if translation.markup != source.markup, let markup = markupDifference(translation.markup, source.markup) {
      parts.append(markup)
    }
    guard !parts.isEmpty else { return nil }
    return "This translation does not match its source: " + parts.joined(separator: "; ")
  }

  /// The markup tags whose counts differ, or nil when each tag is there as
  /// often (in any order).
  private static func markupDifference(_ ours: [String], _ theirs: [String]) -> String? {
    var counts: [String: (ours: Int, theirs: Int)] = [:]
    var order: [String] = []
    for tag in theirs + ours where counts[tag] == nil {
      counts[tag] = (0, 0)
      order.append(tag)
    }
    for tag in ours { counts[tag]!.ours += 1 }
    for tag in theirs { counts[tag]!.theirs += 1 }
    let differing = order.filter { counts[$0]!.ours != counts[$0]!.theirs }
    guard !differing.isEmpty else { return nil }
    let described = differing.map { tag in
      let count = counts[tag]!
      return "\(tag) \(count.ours)\u{D7} (the source: \(count.theirs)\u{D7})"
    }
    return "its markup does not balance the source's: " + described.joined(separator: ", ")
  }

  /// When `tokens` has unnumbered printf placeholders and `other` numbered
  /// ones (`%1$@`) and no unnumbered, each unnumbered one as the argument
  /// it takes: the k-th is `%k$…`.
  private static func numberPrintf(_ tokens: inout [PlaceholderToken], like other: [PlaceholderToken]) {
    func isPrintf(_ spelling: String) -> Bool { spelling.utf8.first == UInt8(ascii: "%") }
    func isNumbered(_ spelling: String) -> Bool { isPrintf(spelling) && spelling.utf8.contains(UInt8(ascii: "$")) }
    guard tokens.contains(where: { $0.isOrdered && isPrintf($0.spelling) }),
      other.contains(where: { !$0.isOrdered && isNumbered($0.spelling) }),
      !other.contains(where: { $0.isOrdered && isPrintf($0.spelling) })
    else { return }
    var argument = 0
    for index in tokens.indices where tokens[index].isOrdered && isPrintf(tokens[index].spelling) {
      argument += 1
      tokens[index] = PlaceholderToken("%\(argument)$" + tokens[index].spelling.dropFirst(), isOrdered: false)
    }
  }

  private static func unique(_ spellings: [String]) -> [String] {
    var seen: Set<String> = []
    return spellings.filter { seen.insert($0).inserted }
  }

  private static func listed(_ spellings: [String]) -> String {
    spellings.map { "\u{201C}\($0)\u{201D}" }.joined(separator: ", ")
  }
}
