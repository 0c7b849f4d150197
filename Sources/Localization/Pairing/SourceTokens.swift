import StructuredText
import UnicodeBidi

/// How a localization value's placeholders and markup are compared with its
/// source's (`bidi.placeholderMismatch`, Protocol/localization.md, "Source
/// pairing"): each atom by a normalized spelling that keeps what decides
/// which value fills it and how, and drops how it is laid out.
enum SourceNormalization {
  /// The tokens of a value (its atoms and markup as the reader found them).
  static func tokens(of entry: TextEntry) -> SourceTokens {
    guard !entry.atoms.isEmpty || !entry.markup.isEmpty else { return .empty }
    return entry.text.utf8.withContiguousStorageIfAvailable { tokens($0, atoms: entry.atoms, markup: entry.markup) }
      ?? Array(entry.text.utf8).withUnsafeBufferPointer { tokens($0, atoms: entry.atoms, markup: entry.markup) }
  }

  private static func tokens(_ bytes: UnsafeBufferPointer<UInt8>, atoms: [TextAtom], markup: [Range<Int>])
    -> SourceTokens
  {
    var result = SourceTokens()
    result.placeholders.reserveCapacity(atoms.count)
    for atom in atoms {
      if let token = placeholder(atom, bytes[atom.range]) { result.placeholders.append(token) }
    }
    for range in markup {
      if let tag = tag(bytes[range]) { result.markup.append(tag) }
    }
    return result
  }

  /// Whether a text may hold a placeholder or a tag: a byte that starts
  /// one (`%`, `{`, `<`, `$`, `&` of `&lt;b&gt;`, `*` of `**`).
  static func mayHoldTokens(_ bytes: some Sequence<UInt8>) -> Bool {
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "%"), UInt8(ascii: "{"), UInt8(ascii: "<"), UInt8(ascii: "$"), UInt8(ascii: "&"),
        UInt8(ascii: "*"):
        return true
      default: continue
      }
    }
    return false
  }

  /// The tokens of a source text the file holds (a `.po` msgid), read by
  /// the value's placeholder rules; nothing is built for a text without a
  /// byte that starts a placeholder or a tag.
  static func tokens(ofSource text: String, rules: PlaceholderRules) -> SourceTokens {
    guard mayHoldTokens(text.utf8) else { return .empty }
    let bytes = Array(text.utf8)
    let found = ValueFinisher.atomsAndMarkup(bytes, rules: rules)
    return bytes.withUnsafeBufferPointer { tokens($0, atoms: found.atoms, markup: found.markup) }
  }

  /// The tokens of a source value a reader built (an XLIFF `<source>`, its
  /// inline elements atoms already): its text read by `rules` besides them.
  static func tokens(ofSourceValue value: TextEntry, rules: PlaceholderRules) -> SourceTokens {
    guard !value.atoms.isEmpty || !value.markup.isEmpty || mayHoldTokens(value.text.utf8) else { return .empty }
    let bytes = Array(value.text.utf8)
    let found = ValueFinisher.atomsAndMarkup(bytes, structural: value.atoms, markup: value.markup, rules: rules)
    return bytes.withUnsafeBufferPointer { tokens($0, atoms: found.atoms, markup: found.markup) }
  }

  // MARK: Placeholders

  private static func placeholder(_ atom: TextAtom, _ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> PlaceholderToken? {
    if atom.kind == .printf {
      // The common `%@`, `%s`, `%d` as they are (`%i` is `%d`).
      if bytes.count == 2 {
        let conversion = bytes[bytes.startIndex + 1]
        if conversion == UInt8(ascii: "i") { return PlaceholderToken("%d", isOrdered: true) }
        if conversion != UInt8(ascii: "%") {
          return PlaceholderToken(String(decoding: bytes, as: UTF8.self), isOrdered: true)
        }
      }
      return printf(Array(bytes))
    }
    if atom.kind == .pound { return nil }  // `#` of a plural branch: the branch's number
    let text = String(decoding: bytes, as: UTF8.self)
    switch atom.kind {
    case .braces:
      // `{}` (Python) is unnumbered; `{name}`, `{0}`, `{0, number}`, `{0:N2}`: by name.
      let name = braceName(text.dropFirst().dropLast())
      return name.isEmpty ? PlaceholderToken("{}", isOrdered: true) : PlaceholderToken("{\(name)}", isOrdered: false)
    case .icuComplex: return PlaceholderToken("{\(braceName(text.dropFirst()))}", isOrdered: false)
    case .doubleBraces:
      var inner = Substring(text.dropFirst(2).dropLast(2)).drop { $0 == " " || $0 == "-" }
      inner = inner.prefix { $0 != "," }
      return PlaceholderToken("{{\(trimmed(inner))}}", isOrdered: false)
    case .inlineElement: return PlaceholderToken(inlineElement(text), isOrdered: false)
    case .fluent:
      // The variable a placeable uses (`{ $name }`, `{ NUMBER($n) }`, a
      // select on `$n`); terms and message references are the
      // translation's to choose.
      guard let dollar = text.firstIndex(of: "$") else { return nil }
      let name = text[text.index(after: dollar)...].prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
      return PlaceholderToken("{ $\(name) }", isOrdered: false)
    case .qt:
      // `%L1` is `%1` localized.
      return PlaceholderToken(text.replacingAll("%L", with: "%"), isOrdered: false)
    case .webExtension: return PlaceholderToken(text.lowercased(), isOrdered: false)
    case .ruby:
      if text.hasPrefix("%<"), let close = text.firstIndex(of: ">") {
        return PlaceholderToken("%{" + text[text.index(text.startIndex, offsetBy: 2)..<close] + "}", isOrdered: false)
      }
      return PlaceholderToken(text, isOrdered: false)
    default: return PlaceholderToken(text, isOrdered: false)
    }
  }

  /// printf: `%` [argument `$`] flags width precision length conversion →
  /// `%` [argument `$`] length conversion (`%i` as `%d`); `%#@name@` as it
  /// is; unnumbered unless it names its argument.
  private static func printf(_ bytes: [UInt8]) -> PlaceholderToken {
    if bytes.count > 2, bytes[1] == UInt8(ascii: "#"), bytes.last == UInt8(ascii: "@") {
      return PlaceholderToken(String(decoding: bytes, as: UTF8.self), isOrdered: false)
    }
    var index = 1
    var spelling: [UInt8] = [UInt8(ascii: "%")]
    var digits = index
    while digits < bytes.count, bytes[digits] >= 0x30, bytes[digits] <= 0x39 { digits += 1 }
    let numbered = digits > index && digits < bytes.count && bytes[digits] == UInt8(ascii: "$")
    if numbered {
      spelling += bytes[index...digits]
      index = digits + 1
    }
    // Flags, width, precision (with `*`).
    func skip(_ set: String) {
      while index < bytes.count - 1, set.utf8.contains(bytes[index]) { index += 1 }
    }
    skip("-+ #0'")
    skip("0123456789*")
    if index < bytes.count - 1, bytes[index] == UInt8(ascii: ".") {
      index += 1
      skip("0123456789*")
    }
    var rest = Array(bytes[min(index, bytes.count)...])
    if rest.last == UInt8(ascii: "i") { rest[rest.count - 1] = UInt8(ascii: "d") }
    spelling += rest
    return PlaceholderToken(String(decoding: spelling, as: UTF8.self), isOrdered: !numbered)
  }

  /// An argument's name inside braces: up to `,`, `:` or `!`, spaces trimmed.
  private static func braceName(_ inner: Substring) -> String {
    trimmed(inner.prefix { $0 != "," && $0 != ":" && $0 != "!" && $0 != "}" })
  }

  /// An XLIFF inline element by its name and `id` (`x#1`, `ph#2`); without
  /// an id, as written.
  private static func inlineElement(_ text: String) -> String {
    let name = text.dropFirst().prefix { $0 != " " && $0 != "/" && $0 != ">" && $0 != "\n" && $0 != "\t" }
    let localName = name.split(separator: ":").last.map(String.init) ?? String(name)
    // The value of ` id=` (or after a tab or line break), in either quote.
    let bytes = Array(text.utf8)
    var index = 1
    while index + 4 < bytes.count {
      if bytes[index] == UInt8(ascii: "i"), bytes[index + 1] == UInt8(ascii: "d"),
        bytes[index + 2] == UInt8(ascii: "="),
        [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index - 1]),
        bytes[index + 3] == UInt8(ascii: "\"") || bytes[index + 3] == UInt8(ascii: "'")
      {
        let quote = bytes[index + 3]
        let value = bytes[(index + 4)...].prefix { $0 != quote }
        return localName + "#" + String(decoding: value, as: UTF8.self)
      }
      index += 1
    }
    return text
  }

  // MARK: Markup

  /// Void elements: a translation may add or drop a line break.
  private static let voidElements: Set<String> = ["br", "wbr", "hr"]

  /// A markup span as a tag: `<b>`, `</b>`, `<a>` for `<a href="…">`,
  /// `<bpt#1>` for an XLIFF paired code with an id; nil for a void or
  /// self-closing element and Android's `<xliff:g>`. Other markup (`**`)
  /// as written.
  private static func tag(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String? {
    var text = String(decoding: bytes, as: UTF8.self)
    if text.hasPrefix("&lt;") { text = "<" + text.dropFirst(4).replacingAll("&gt;", with: ">") }
    guard text.hasPrefix("<") else { return text }
    let closing = text.hasPrefix("</")
    let name = text.dropFirst(closing ? 2 : 1).prefix {
      $0 != " " && $0 != "/" && $0 != ">" && $0 != "\n" && $0 != "\t"
    }.lowercased()
    // Void elements; `xliff:g` (Android's "do not translate" marker, which
    // the resource compiler drops) and other translator annotations.
    if voidElements.contains(name) || name.hasPrefix("xliff:") { return nil }
    let head = text.prefix { $0 != ">" }
    if !closing, head.hasSuffix("/") {
      return name == "x" || name == "ph" ? nil : "<\(name)/>"
    }
    if !closing, ["bpt", "ept", "bx", "ex", "it", "sc", "ec", "g", "pc"].contains(name) {
      let id = inlineElement(String(head) + ">")
      if id.contains("#") { return "<\(id)>" }
    }
    return closing ? "</\(name)>" : "<\(name)>"
  }

  private static func trimmed(_ text: Substring) -> String {
    String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
