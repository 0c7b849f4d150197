import StructuredText
import UnicodeBidi

/// Completes a value a reader built: finds its placeholders by the format's
/// rules (beside those its structure gave), its markup and its paragraphs,
/// and splits off the branches of its ICU plural/select arguments as
/// entries of their own, right after it.
enum ValueFinisher {
  /// Hands each entry to `emit`: the value, then its branches.
  static func finish(_ value: consuming TextEntry, rules: PlaceholderRules, _ emit: (consuming TextEntry) -> Void) {
    let bytes = Array(value.text.utf8)
    var placeholders = value.atoms
    var branches: [ICUMessage.Branch] = []
    var branchArguments: [[TextAtom]] = []
    let structural = placeholders.map(\.range) + value.markup
    var found: [TextAtom] = []
    if rules.i18next || rules.mustache { found += FormatPlaceholders.i18next(bytes, nesting: rules.i18next) }
    if rules.railsSymfony { found += FormatPlaceholders.ruby(bytes) + FormatPlaceholders.symfony(bytes) }
    if rules.icu {
      let message = ICUMessage(
        bytes, opaque: (found.map(\.range) + structural).sorted { $0.lowerBound < $1.lowerBound })
      branches = message.branches
      branchArguments = Array(repeating: [], count: branches.count)
      for argument in message.arguments {
        if argument.owner < 0 {
          found.append(argument.placeholder)
        } else {
          branchArguments[argument.owner].append(argument.placeholder)
        }
      }
    }
    if rules.printf { found += FormatPlaceholders.printf(bytes, catalogArgument: rules.catalogArgument) }
    if rules.pythonPercent { found += FormatPlaceholders.pythonPercent(bytes) }
    if rules.pythonBraces { found += FormatPlaceholders.braces(bytes, python: true) }
    if rules.dotnet { found += FormatPlaceholders.braces(bytes, python: false) }
    if rules.qt { found += FormatPlaceholders.qt(bytes) }
    if rules.webExtension { found += FormatPlaceholders.webExtension(bytes) }
    placeholders = merge(structural: placeholders, markup: value.markup, found: found)
    value.atoms = placeholders
    value.markup = merged(value.markup, MarkupScanner.scan(bytes, outside: spans(of: value)))
    let outside = spans(of: value)
    value.characterReferences = MarkupScanner.characterReferences(bytes, outside: outside)
    value.paragraphs = paragraphs(bytes, skipping: outside)
    guard !branches.isEmpty else { return emit(value) }
    let whole = copy value
    emit(value)
    for (index, branch) in branches.enumerated() {
      var variant = branch.variant
      var owner = branch.owner
      while owner >= 0 {
        variant = branches[owner].variant + "/" + variant
        owner = branches[owner].owner
      }
      if let parent = whole.variant { variant = parent + "/" + variant }
      emit(slice(whole, branch.content, variant: variant, placeholders: branchArguments[index]))
    }
  }

  /// The placeholders and markup of a text that is no value of its own (a
  /// source text the file holds, such as a `.po` msgid), by the same
  /// grammars as `finish` but nothing else built: no paragraphs, no
  /// character references, an ICU argument's branches not split off (the
  /// argument is one atom).
  static func atomsAndMarkup(
    _ bytes: [UInt8], structural: [TextAtom] = [], markup: [Range<Int>] = [],
    rules: PlaceholderRules
  ) -> (atoms: [TextAtom], markup: [Range<Int>]) {
    var found: [TextAtom] = []
    if rules.i18next || rules.mustache { found += FormatPlaceholders.i18next(bytes, nesting: rules.i18next) }
    if rules.railsSymfony { found += FormatPlaceholders.ruby(bytes) + FormatPlaceholders.symfony(bytes) }
    if rules.icu {
      let opaque = (found.map(\.range) + structural.map(\.range) + markup).sorted { $0.lowerBound < $1.lowerBound }
      found += ICUMessage(bytes, opaque: opaque).arguments.filter { $0.owner < 0 }.map(\.placeholder)
    }
    if rules.printf { found += FormatPlaceholders.printf(bytes, catalogArgument: rules.catalogArgument) }
    if rules.pythonPercent { found += FormatPlaceholders.pythonPercent(bytes) }
    if rules.pythonBraces { found += FormatPlaceholders.braces(bytes, python: true) }
    if rules.dotnet { found += FormatPlaceholders.braces(bytes, python: false) }
    if rules.qt { found += FormatPlaceholders.qt(bytes) }
    if rules.webExtension { found += FormatPlaceholders.webExtension(bytes) }
    let atoms = found.isEmpty ? structural : merge(structural: structural, markup: markup, found: found)
    let taken = (atoms.map(\.range) + markup).sorted { $0.lowerBound < $1.lowerBound }
    guard bytes.contains(UInt8(ascii: "<")) || bytes.contains(UInt8(ascii: "&")) || bytes.contains(UInt8(ascii: "*"))
    else { return (atoms, markup) }
    return (atoms, merged(markup, MarkupScanner.scan(bytes, outside: taken)))
  }

  /// Keeps the structural placeholders and, of the others, those that
  /// overlap nothing taken before them, in order.
  private static func merge(structural: [TextAtom], markup: [Range<Int>], found: [TextAtom])
    -> [TextAtom]
  {
    var result = structural
    let taken = (structural.map(\.range) + markup).sorted { $0.lowerBound < $1.lowerBound }
    var accepted: [Range<Int>] = taken
    for placeholder in found.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
      if let last = accepted.last, last.lowerBound <= placeholder.range.lowerBound,
        last.upperBound > placeholder.range.lowerBound
      {
        continue
      }
      if overlapsAny(placeholder.range, taken) { continue }
      accepted.append(placeholder.range)
      result.append(placeholder)
    }
    return result.sorted { $0.range.lowerBound < $1.range.lowerBound }
  }

  private static func overlapsAny(_ range: Range<Int>, _ sorted: [Range<Int>]) -> Bool {
    var low = 0
    var high = sorted.count
    while low < high {
      let middle = (low + high) / 2
      if sorted[middle].upperBound <= range.lowerBound { low = middle + 1 } else { high = middle }
    }
    return low < sorted.count && sorted[low].lowerBound < range.upperBound
  }

  private static func merged(_ a: [Range<Int>], _ b: [Range<Int>]) -> [Range<Int>] {
    guard !b.isEmpty else { return a }
    return Set(a + b).sorted { $0.lowerBound < $1.lowerBound }
  }

  /// Placeholders and markup, sorted: the spans paragraphs never split.
  static func spans(of value: TextEntry) -> [Range<Int>] {
    (value.atoms.map(\.range) + value.markup).sorted { $0.lowerBound < $1.lowerBound }
  }

  /// UAX #9 P1 over the text outside `skipping`: each paragraph ends after
  /// its Bidi_Class B separator (CR LF together); no empty paragraph follows
  /// a final separator; an empty text has one empty paragraph.
  static func paragraphs(_ bytes: [UInt8], skipping spans: [Range<Int>]) -> [Range<Int>] {
    bytes.withUnsafeBufferPointer { bytes in
      var result: [Range<Int>] = []
      var start = 0
      var index = 0
      var nextSpan = 0
      let count = bytes.count
      while index < count {
        while nextSpan < spans.count, spans[nextSpan].upperBound <= index { nextSpan += 1 }
        if nextSpan < spans.count, spans[nextSpan].lowerBound <= index {
          index = spans[nextSpan].upperBound
          continue
        }
        let separator = ParagraphSeparator.length(at: index, in: bytes)
        guard separator > 0 else {
          index += 1
          continue
        }
        index += separator
        result.append(start..<index)
        start = index
      }
      if start < count || result.isEmpty { result.append(start..<count) }
      return result
    }
  }

  /// A branch of `value` as a value of its own.
  private static func slice(
    _ value: TextEntry, _ range: Range<Int>, variant: String, placeholders: [TextAtom]
  ) -> TextEntry {
    let bytes = Array(value.text.utf8)[range]
    let map = value.map.slice(range)
    let start = value.map.sourceStart(ofDecoded: range.lowerBound) ?? value.content.start
    let end = range.isEmpty ? start : (value.map.sourceEnd(ofDecoded: range.upperBound) ?? start)
    var branch = TextEntry(
      key: value.key, text: String(decoding: bytes, as: UTF8.self), map: map,
      content: SourceRange(start: start, end: end), firstLine: value.firstLine)
    branch.context = value.context
    branch.source = value.source
    branch.variant = variant
    branch.isBranch = true
    branch.locale = value.locale
    branch.controlSpelling = value.controlSpelling
    branch.hasLiteralControl = value.hasLiteralControl
    func rebase(_ r: Range<Int>) -> Range<Int> { (r.lowerBound - range.lowerBound)..<(r.upperBound - range.lowerBound) }
    branch.atoms = placeholders.map {
      var copy = $0
      copy.range = rebase($0.range)
      return copy
    }
    let inner = value.markup.filter { $0.lowerBound >= range.lowerBound && $0.upperBound <= range.upperBound }
    let innerBytes = Array(bytes)
    branch.markup = inner.map(rebase)
    branch.markup = merged(branch.markup, MarkupScanner.scan(innerBytes, outside: spans(of: branch)))
    branch.characterReferences = MarkupScanner.characterReferences(innerBytes, outside: spans(of: branch))
    branch.layoutWhiteSpace = value.layoutWhiteSpace.filter {
      $0.lowerBound >= range.lowerBound && $0.upperBound <= range.upperBound
    }.map(rebase)
    branch.paragraphs = paragraphs(innerBytes, skipping: spans(of: branch))
    return branch
  }
}
