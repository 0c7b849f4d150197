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
