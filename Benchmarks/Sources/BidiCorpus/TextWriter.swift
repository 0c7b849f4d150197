/// Appends generated text to a UTF-8 buffer. Each corpus kind has a paragraph
/// (or line) generator here; all randomness comes from `rng`.
struct TextWriter {
  var rng: SeededGenerator
  private(set) var bytes: [UInt8] = []
  /// Block depth of the source-code generator (0 = top level).
  private var codeDepth = 0

  init(seed: UInt64) {
    rng = SeededGenerator(seed: seed)
  }

  // MARK: Primitives

  mutating func add(_ text: String) {
    bytes.append(contentsOf: text.utf8)
  }

  mutating func add(scalar value: UInt32) {
    if let scalar = Unicode.Scalar(value) {
      bytes.append(contentsOf: String(Character(scalar)).utf8)
    }
  }

  mutating func newline() {
    bytes.append(0x0A)
  }

  private enum Language { case arabic, hebrew, english }

  private mutating func words(_ language: Language, _ count: ClosedRange<Int>) -> String {
    let list: [String]
    switch language {
    case .arabic: list = Vocabulary.arabic
    case .hebrew: list = Vocabulary.hebrew
    case .english: list = Vocabulary.english
    }
    var out = ""
    for i in 0..<rng.int(count) {
      if i > 0 { out += " " }
      out += rng.pick(list)
    }
    return out
  }

  private mutating func rtlLanguage() -> Language {
    rng.chance(0.6) ? .arabic : .hebrew
  }

  /// Numbers in the shapes real text has them: plain, decimal, grouped, dates,
  /// times, percentages, currency, phone numbers, ranges, Arabic-Indic digits.
  private mutating func number() -> String {
    switch rng.int(0...11) {
    case 0: return String(rng.int(0...999))
    case 1: return "\(rng.int(0...99)).\(rng.int(10...99))"
    case 2: return "\(rng.int(1...999)),\(rng.int(100...999)),\(rng.int(100...999))"
    case 3: return "20\(rng.int(10...29))-0\(rng.int(1...9))-\(rng.int(10...28))"
    case 4: return "\(rng.int(1...12)):\(rng.int(10...59))"
    case 5: return "\(rng.int(1...100))%"
    case 6: return "$\(rng.int(1...999)).\(rng.int(10...99))"
    case 7: return "+1 (555) \(rng.int(100...999))-\(rng.int(1000...9999))"
    case 8: return "\(rng.int(1...20))-\(rng.int(21...40))"
    case 9: return "١٢٣" + (rng.chance(0.5) ? "٫٥" : "")  // Arabic-Indic (AN)
    case 10: return "۱۴۰۲/۰۵/۱۲"  // Extended Arabic-Indic (EN), Persian date
    default: return "#\(rng.int(1...500))"
    }
  }

  // MARK: Prose

  /// One paragraph of mixed-script prose: mostly one language, with phrases of
  /// others, numbers, URLs, addresses, brackets, quotes and the odd emoji.
  mutating func proseParagraph(maxSentences: Int = 6) {
    let roll = rng.int(0...19)
    let main: Language = roll < 8 ? .arabic : (roll < 13 ? .hebrew : .english)
    for s in 0..<rng.int(1...maxSentences) {
      if s > 0 { add(" ") }
      sentence(main)
    }
  }

  private mutating func sentence(_ main: Language) {
    let other: Language = main == .english ? rtlLanguage() : .english
    for t in 0..<rng.int(5...18) {
      if t > 0 { add(" ") }
      let roll = rng.int(0...99)
      switch roll {
      case 0..<68: add(words(main, 1...1))
      case 68..<78: add(words(other, 1...3))
      case 78..<86: add(number())
      case 86..<88: add(rng.pick(Vocabulary.urls))
      case 88..<89: add(rng.pick(Vocabulary.emails))
      case 89..<92: add("(" + words(rng.chance(0.5) ? main : other, 1...3) + ")")
      case 92..<94: add(main == .english ? "\"" + words(other, 1...2) + "\"" : "«" + words(main, 1...2) + "»")
      case 94..<96: add("[\(rng.int(1...40))]")
      case 96..<97: add(rng.pick(Vocabulary.emoji))
      default: add(words(main, 1...1) + " - " + words(main, 1...1))
      }
      if rng.chance(0.08) { add(main == .arabic ? "،" : ",") }
    }
    let ends = main == .arabic ? [".", ".", "!", "؟", ":"] : [".", ".", "!", "?", ":"]
    add(rng.pick(ends))
  }

  // MARK: Source code

  /// One line of Swift-like source code. With `rtl`, about half the string
  /// literals and a third of the comments are Arabic or Hebrew; without it the
  /// line is pure ASCII.
  mutating func codeLine(rtl: Bool) {
    if codeDepth == 0 {
      switch rng.int(0...9) {
      case 0...1: break  // blank line
      case 2...4: add("// " + comment(rtl: rtl))
      default:
        add(
          "func \(identifier())(\(identifier()): \(rng.pick(Vocabulary.types)), "
            + "\(identifier()): \(rng.pick(Vocabulary.types))) -> \(rng.pick(Vocabulary.types)) {")
        codeDepth = 1
      }
      return
    }
    let roll = rng.int(0...99)
    if roll < 5 { return }  // blank line
    let closes = roll < 20 && (codeDepth > 1 || rng.chance(0.5))
    let indent = String(repeating: "    ", count: closes ? codeDepth - 1 : codeDepth)
    add(indent)
    if closes {
      add("}")
      codeDepth -= 1
    } else if roll < 30 && codeDepth < 5 {
      add("if \(identifier()) > \(rng.int(0...99)) && \(identifier()) != nil {")
      codeDepth += 1
    } else if roll < 40 {
      add("// " + comment(rtl: rtl))
    } else {
      statement(rtl: rtl)
      if rng.chance(0.15) { add("  // " + comment(rtl: rtl)) }
    }
  }

  private mutating func statement(rtl: Bool) {
    switch rng.int(0...6) {
    case 0:
      add(
        "let \(identifier()) = \(identifier())(\(identifier()), \(rng.int(0...999))) + \(identifier()).\(identifier()) * \(rng.int(1...9))"
      )
    case 1: add("return \"\(literal(rtl: rtl))\"")
    case 2: add("print(\"\(literal(rtl: rtl)) \\(\(identifier()))\")")
    case 3: add("\(identifier()).append(\"\(literal(rtl: rtl))\")")
    case 4: add("let \(identifier()) = NSLocalizedString(\"\(identifier())\", comment: \"\(literal(rtl: rtl))\")")
    case 5: add("label.text = \"\(literal(rtl: rtl))\" + \(identifier())")
    default:
      add(
        "var \(identifier()): [\(rng.pick(Vocabulary.types))] = [\(rng.int(0...9)), \(rng.int(10...99)), \(rng.int(100...999))]"
      )
    }
  }

  private mutating func identifier() -> String {
    let head = rng.pick(Vocabulary.identifiers)
    guard rng.chance(0.5) else { return head }
    let tail = rng.pick(Vocabulary.identifiers)
    return head + tail.prefix(1).uppercased() + tail.dropFirst()
  }

  private mutating func literal(rtl: Bool) -> String {
    guard rtl && rng.chance(0.5) else { return words(.english, 1...5) }
    var text = words(rtlLanguage(), 1...5)
    switch rng.int(0...5) {
    case 0: text = "%@ " + text + " %@"
    case 1: text += " {0}"
    case 2: text += " \(rng.int(1...99))"
    default: break
    }
    return text
  }

  private mutating func comment(rtl: Bool) -> String {
    rtl && rng.chance(0.35) ? words(rtlLanguage(), 2...8) : words(.english, 2...8)
  }

  // MARK: Isolates and embeddings

  /// One RTL-heavy paragraph using the explicit formatting characters: isolates
  /// (LRI, RLI, FSI … PDI, sometimes nested, sometimes unclosed), embeddings
  /// and overrides (LRE, RLE, LRO, RLO … PDF), stray closers and marks.
  /// With `wellFormed`, every opener is closed, and there are no stray closers
  /// and no overrides (nothing a Trojan Source check would flag).
  mutating func isolatesParagraph(maxSentences: Int = 5, wellFormed: Bool = false) {
    let main: Language = rng.chance(0.9) ? rtlLanguage() : .english
    for s in 0..<rng.int(1...maxSentences) {
      if s > 0 { add(" ") }
      isolatesSentence(main, wellFormed: wellFormed)
    }
  }

  private mutating func isolatesSentence(_ main: Language, wellFormed: Bool) {
    let other: Language = main == .english ? rtlLanguage() : .english
    for t in 0..<rng.int(4...14) {
      if t > 0 { add(" ") }
      let roll = rng.int(0...99)
      switch roll {
      case 0..<55: add(words(main, 1...1))
      case 55..<62: add(number())
      case 62..<68: isolated(0x2066, words(.english, 1...3) + " " + number())  // LRI
      case 68..<72: isolated(0x2067, words(rtlLanguage(), 1...3))  // RLI
      case 72..<78: isolated(0x2068, words(rng.chance(0.5) ? main : other, 1...3))  // FSI
      case 78..<83: embedded(0x202A, words(.english, 1...3))  // LRE
      case 83..<86: embedded(0x202B, words(rtlLanguage(), 1...3))  // RLE
      case 86..<89:  // nested isolates
        add(scalar: 0x2066)
        add(words(.english, 1...2) + " ")
        isolated(0x2067, words(rtlLanguage(), 1...2) + " " + number())
        add(" " + words(.english, 1...1))
        add(scalar: 0x2069)
      case 89..<92 where wellFormed: add(words(other, 1...2))
      case 89..<90: embedded(rng.chance(0.5) ? 0x202D : 0x202E, words(other, 1...2))  // LRO/RLO
      case 90..<91: add(scalar: rng.chance(0.5) ? 0x2069 : 0x202C)  // stray PDI/PDF
      case 91..<92:  // unclosed isolate: closed by the end of the paragraph
        add(scalar: rng.pick([0x2066, 0x2067, 0x2068]))
        add(words(other, 1...2))
      case 92..<96:  // marks after a number
        add(number())
        add(scalar: rng.pick([0x200E, 0x200F, 0x061C]))
      default: add(words(other, 1...2))
      }
    }
    add(main == .arabic ? rng.pick([".", "؟", "!"]) : rng.pick([".", "?", "!"]))
  }

  private mutating func isolated(_ opener: UInt32, _ text: String) {
    add(scalar: opener)
    add(text)
    add(scalar: 0x2069)
  }

  private mutating func embedded(_ opener: UInt32, _ text: String) {
    add(scalar: opener)
    add(text)
    add(scalar: 0x202C)
  }
}
