import BidiHazards
import UnicodeBidi

/// How a text file's bytes are text, told by its byte order mark.
package enum FileEncoding: String, Sendable, Hashable {
  /// UTF-8 without a byte order mark (also any file with no BOM).
  case utf8
  /// UTF-8 starting with EF BB BF (kept in the text: readers skip it).
  case utf8WithBOM
  /// UTF-16, little endian, starting with FF FE (Apple `.strings` files of old Xcode versions).
  case utf16LittleEndian
  /// UTF-16, big endian, starting with FE FF.
  case utf16BigEndian
}

/// A file as `bidi-lsp check` reads it: its text in UTF-8, and the
/// encoding it was in.
package struct DecodedFile: Sendable, Hashable {
  /// The text as UTF-8. A UTF-8 file's bytes as they are (BOM included,
  /// so that columns count the file's bytes); a UTF-16 file converted, its
  /// BOM dropped, an unpaired surrogate or an odd last byte written as
  /// bytes that are not UTF-8 (ED A0 80–ED BF BF, or FF), so that the
  /// readers report them as invalid text at their place.
  package var utf8: [UInt8]
  package var encoding: FileEncoding

  /// Decodes a file by its byte order mark: FF FE is UTF-16LE, FE FF is
  /// UTF-16BE, anything else UTF-8 (with or without EF BB BF).
  package init(_ bytes: [UInt8]) {
    if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE {
      encoding = .utf16LittleEndian
      utf8 = Self.utf16(bytes, bigEndian: false)
    } else if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF {
      encoding = .utf16BigEndian
      utf8 = Self.utf16(bytes, bigEndian: true)
    } else {
      encoding = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? .utf8WithBOM : .utf8
      utf8 = bytes
    }
  }

  /// The text, split into lines for the readers.
  package var text: TextLines {
    var lines = TextLines(utf8)
    lines.isUTF16Conversion = encoding == .utf16LittleEndian || encoding == .utf16BigEndian
    return lines
  }

  private static func utf16(_ bytes: [UInt8], bigEndian: Bool) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count + bytes.count / 2)
    var index = 2
    func unit(at k: Int) -> UInt32 {
      bigEndian ? UInt32(bytes[k]) << 8 | UInt32(bytes[k + 1]) : UInt32(bytes[k + 1]) << 8 | UInt32(bytes[k])
    }
    while index + 1 < bytes.count {
      let first = unit(at: index)
      index += 2
      var scalar = first
      if first >= 0xD800 && first < 0xDC00, index + 1 < bytes.count {
        let second = unit(at: index)
        if second >= 0xDC00 && second < 0xE000 {
          scalar = 0x10000 + (first - 0xD800) << 10 + (second - 0xDC00)
          index += 2
        }
      }
      if scalar >= 0xD800 && scalar < 0xE000 {
        // Not Unicode text: kept as the three bytes UTF-8 would give it,
        // which no UTF-8 reader accepts.
        result += [0xE0 | UInt8(scalar >> 12), 0x80 | UInt8(scalar >> 6 & 0x3F), 0x80 | UInt8(scalar & 0x3F)]
      } else {
        UTF8Encoder.append(scalar, to: &result)
      }
    }
    if index < bytes.count { result.append(UTF16Conversion.oddByteMark) }
    return result
  }
}
