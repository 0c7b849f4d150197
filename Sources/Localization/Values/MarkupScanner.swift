import StructuredText
import UnicodeBidi

/// Finds markup in a value's decoded text, outside the spans already taken
/// (placeholders, XML inline elements): HTML-style tags `<b>`, `</b>`,
/// `<br/>`, `<a href="…">`, numbered tags `<1>`…`</1>` (react-i18next),
/// the same written with entities (`&lt;b&gt;`), and `**` pairs
/// (Markdown bold). Each scan from a `<` stops at the next `<`, so the pass
/// is linear.
enum MarkupScanner {
  /// The markup of `bytes` outside `taken`, which must be sorted by their
  /// starts (`ValueFinisher.spans(of:)`): the scan walks them in order, so a
  /// tag the reader kept whole (an XML inline element whose attribute holds
  /// `>`) is never scanned again as a shorter one.
  static func scan(_ bytes: [UInt8], outside taken: [Range<Int>]) -> [Range<Int>] {
    var found: [Range<Int>] = []
    var stars: [Int] = []
    var nextTaken = 0
    var index = 0
    let count = bytes.count
    while index < count {
      while nextTaken < taken.count, taken[nextTaken].upperBound <= index { nextTaken += 1 }
      if nextTaken < taken.count, taken[nextTaken].contains(index) {
        index = taken[nextTaken].upperBound
        continue
      }
      let limit = nextTaken < taken.count ? taken[nextTaken].lowerBound : count
      let byte = bytes[index]
      if byte == UInt8(ascii: "<"), let end = tagEnd(bytes, from: index, opener: 1, closer: [0x3E], limit: limit) {
        found.append(index..<end)
        index = end
      } else if byte == UInt8(ascii: "&"), bytes[index..<min(index + 4, count)].elementsEqual("&lt;".utf8),
        let end = tagEnd(bytes, from: index, opener: 4, closer: Array("&gt;".utf8), limit: limit)
      {
        found.append(index..<end)
        index = end
      } else if byte == UInt8(ascii: "*"), index + 1 < limit, bytes[index + 1] == UInt8(ascii: "*") {
        stars.append(index)
        index += 2
      } else {
        index += 1
      }
    }
    if stars.count >= 2 {
      for pair in stride(from: 0, to: stars.count - 1, by: 2) {
        found.append(stars[pair]..<stars[pair] + 2)
        found.append(stars[pair + 1]..<stars[pair + 1] + 2)
      }
      found.sort { $0.lowerBound < $1.lowerBound }
    }
    return found
  }

  /// The end of a tag starting at `start` (its opener `opener` bytes long),
  /// or nil: `/`? name (attributes) `/`? closer, with no `<` before it.
  private static func tagEnd(_ bytes: [UInt8], from start: Int, opener: Int, closer: [UInt8], limit: Int) -> Int? {
    var probe = start + opener
    if probe < limit, bytes[probe] == UInt8(ascii: "/") { probe += 1 }
    let nameStart = probe
    guard probe < limit, isNameByte(bytes[probe]) else { return nil }
    let numbered = isDigit(bytes[probe])
    while probe < limit,
      isNameByte(bytes[probe]) || bytes[probe] == UInt8(ascii: ":") || bytes[probe] == UInt8(ascii: "-")
    {
      if !isDigit(bytes[probe]) && numbered { return nil }
      probe += 1
    }
    guard probe > nameStart else { return nil }
    if numbered {
      if probe < limit, bytes[probe] == UInt8(ascii: "/") { probe += 1 }
      return bytes[probe..<min(probe + closer.count, limit)].elementsEqual(closer) ? probe + closer.count : nil
    }
    while probe < limit {
      let byte = bytes[probe]
      if byte == UInt8(ascii: "<") { return nil }
      if byte == closer[0], bytes[probe..<min(probe + closer.count, limit)].elementsEqual(closer) {
        return probe + closer.count
      }
      if closer.count > 1, byte == UInt8(ascii: "&"), bytes[probe..<min(probe + 4, limit)].elementsEqual("&lt;".utf8) {
        return nil
      }
      guard probe == start + opener || byte == 0x20 || probe > nameStart else { return nil }
      probe += 1
    }
    return nil
  }
}

extension MarkupScanner {
  /// The HTML character references of `bytes` outside `taken` (sorted):
  /// `&#NNN;`, `&#xHHH;` and the named ones of `namedReferences`, each with
  /// the character it stands for. A value shown as HTML (i18next through
  /// React, a Rails `_html` key, an Android `Html.fromHtml`) displays that
  /// character: it counts as that character for directions, and no edit
  /// splits it (an inserted mark would leave `&` and `amp;` as text).
  static func characterReferences(_ bytes: [UInt8], outside taken: [Range<Int>]) -> [CharacterReference] {
    var found: [CharacterReference] = []
    var nextTaken = 0
    var index = 0
    let count = bytes.count
    while index < count {
      guard bytes[index] == UInt8(ascii: "&") else {
        index += 1
        continue
      }
      while nextTaken < taken.count, taken[nextTaken].upperBound <= index { nextTaken += 1 }
      if nextTaken < taken.count, taken[nextTaken].lowerBound <= index {
        index = taken[nextTaken].upperBound
        continue
      }
      let limit = min(nextTaken < taken.count ? taken[nextTaken].lowerBound : count, index + 12)
      var end = index + 1
      while end < limit, bytes[end] != UInt8(ascii: ";"), bytes[end] != UInt8(ascii: "&") { end += 1 }
      guard end < limit, bytes[end] == UInt8(ascii: ";"),
        let scalar = referencedScalar(bytes[(index + 1)..<end])
      else {
        index += 1
        continue
      }
      found.append(CharacterReference(range: index..<end + 1, scalar: scalar))
      index = end + 1
    }
    return found
  }

  /// The character a reference's name (between `&` and `;`) stands for.
  private static func referencedScalar(_ name: ArraySlice<UInt8>) -> UInt32? {
    guard let first = name.first else { return nil }
    if first == UInt8(ascii: "#") {
      var digits = name.dropFirst()
      var radix: UInt32 = 10
      if let x = digits.first, x == UInt8(ascii: "x") || x == UInt8(ascii: "X") {
        radix = 16
        digits = digits.dropFirst()
      }
      guard !digits.isEmpty, digits.count <= 7 else { return nil }
      var value: UInt32 = 0
      for digit in digits {
        guard let d = hexValue(digit), d < radix else { return nil }
        value = value * radix + d
      }
      guard value > 0, value <= 0x10FFFF, !(0xD800..<0xE000).contains(value) else { return nil }
      return value
    }
    return namedReferences[String(decoding: name, as: UTF8.self)]
  }

  /// The named references localization files use.
  static let namedReferences: [String: UInt32] = [
    "amp": 0x26, "lt": 0x3C, "gt": 0x3E, "quot": 0x22, "apos": 0x27, "nbsp": 0xA0, "shy": 0xAD, "copy": 0xA9,
    "reg": 0xAE, "trade": 0x2122, "hellip": 0x2026, "mdash": 0x2014, "ndash": 0x2013, "laquo": 0xAB,
    "raquo": 0xBB, "lsquo": 0x2018, "rsquo": 0x2019, "ldquo": 0x201C, "rdquo": 0x201D, "bull": 0x2022,
    "middot": 0xB7, "times": 0xD7, "divide": 0xF7, "deg": 0xB0, "euro": 0x20AC, "pound": 0xA3, "yen": 0xA5,
    "cent": 0xA2, "sect": 0xA7, "para": 0xB6, "lrm": 0x200E, "rlm": 0x200F, "zwj": 0x200D, "zwnj": 0x200C,
    "thinsp": 0x2009, "ensp": 0x2002, "emsp": 0x2003, "larr": 0x2190, "rarr": 0x2192, "hArr": 0x21D4,
  ]
}
