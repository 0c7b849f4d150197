/// What a UTF-16 file's conversion to UTF-8 (`DecodedFile`) holds where the
/// file is not UTF-16 text: an unpaired surrogate as the three bytes UTF-8
/// would give it (ED A0 80…ED BF BF), an odd last byte as FF. Both are
/// ill-formed UTF-8, so the readers and the hazard scan stop at them; their
/// messages name them as what they were in the file, not as UTF-8 bytes.
package enum UTF16Conversion {
  /// The byte a conversion writes for an odd last byte.
  package static let oddByteMark: UInt8 = 0xFF

  /// The UTF-16 defects that the ill-formed bytes `bytes` of a conversion
  /// stand for, as a phrase: "an unpaired UTF-16 surrogate (0xD800)",
  /// "unpaired UTF-16 surrogates (0xD800 0xDC01)", "an odd last byte (UTF-16
  /// is read two bytes at a time)", or both joined by "and". Bytes of neither
  /// kind are named as bytes.
  package static func describe(_ bytes: some Collection<UInt8>) -> String {
    var surrogates: [String] = []
    var others: [String] = []
    var oddByte = false
    var rest = bytes[...]
    while let first = rest.first {
      let triple = Array(rest.prefix(3))
      if triple.count == 3, first == 0xED, triple[1] >= 0xA0, triple[1] <= 0xBF, triple[2] & 0xC0 == 0x80 {
        let unit = UInt16(first & 0x0F) << 12 | UInt16(triple[1] & 0x3F) << 6 | UInt16(triple[2] & 0x3F)
        surrogates.append("0x" + String(unit, radix: 16, uppercase: true))
        rest = rest.dropFirst(3)
        continue
      }
      if first == oddByteMark {
        oddByte = true
      } else {
        let hex = String(first, radix: 16, uppercase: true)
        others.append("0x" + (hex.count == 1 ? "0" : "") + hex)
      }
      rest = rest.dropFirst()
    }
    var parts: [String] = []
    if !surrogates.isEmpty {
      let list = surrogates.prefix(8).joined(separator: " ") + (surrogates.count > 8 ? " …" : "")
      parts.append(
        surrogates.count == 1
          ? "an unpaired UTF-16 surrogate (\(list))" : "unpaired UTF-16 surrogates (\(list))")
    }
    if !others.isEmpty { parts.append("bytes that are not text (\(others.prefix(8).joined(separator: " ")))") }
    if oddByte { parts.append("an odd last byte (UTF-16 is read two bytes at a time)") }
    return parts.joined(separator: " and ")
  }
}
