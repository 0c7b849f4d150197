import BenchmarkSupport
import BidiCorpus
import CICU
import UnicodeBidi

/// `--l3`: our visual text with UAX #9 L3 (`combiningMarks: .afterBase`)
/// against ICU's `ubidi_writeReordered` with `UBIDI_KEEP_BASE_COMBINING`
/// (both mirrored), on every paragraph of a corpus; and the same without L3,
/// so that differences L3 causes are told apart from those of the order
/// itself. The characters either side drops are dropped from both: ICU's
/// `UBIDI_REMOVE_BIDI_CONTROLS` set (U+200C–U+200F, U+202A–U+202E,
/// U+2066–U+2069) and the characters X9 removes (BN, embeddings, overrides).
struct CombiningMarkCheck {
  var paragraphs = 0
  /// Paragraphs whose visual text differs without L3, and with it.
  var differentWithout = 0
  var differentWith = 0
  /// Paragraphs whose text L3 changes (on our side).
  var changedByL3 = 0
  var firstDifference: String?

  init(corpus: Corpus) {
    let capacity = max(corpus.maxParagraphBytes, 1)
    var error = U_ZERO_ERROR
    guard let bidi = bench_icu_open(Int32(capacity), &error), bench_icu_failure(error) == 0 else {
      fatalError("ubidi_openSized failed")
    }
    defer { bench_icu_close(bidi) }
    let text = UnsafeMutablePointer<UInt16>.allocate(capacity: capacity)
    let output = UnsafeMutablePointer<UInt16>.allocate(capacity: 2 * capacity)
    defer {
      text.deallocate()
      output.deallocate()
    }
    corpus.text.withUnsafeBufferPointer { all in
      for range in corpus.paragraphs where !range.isEmpty {
        paragraphs += 1
        let bytes = UnsafeBufferPointer(rebasing: all[range])
        var error = U_ZERO_ERROR
        let length = bytes.withMemoryRebound(to: CChar.self) {
          bench_icu_from_utf8(text, Int32(capacity), $0.baseAddress!, Int32($0.count), &error)
        }
        bench_icu_set_para(bidi, text, length, bench_icu_default_ltr(), &error)
        func icu(_ keep: Bool) -> [UInt32] {
          var error = U_ZERO_ERROR
          let count = bench_icu_write_reordered(bidi, output, Int32(2 * capacity), keep ? 1 : 0, &error)
          let units = UnsafeBufferPointer(start: output, count: Int(count))
          return Self.kept(String(decoding: units, as: UTF16.self).unicodeScalars.map(\.value))
        }
        let paragraph = BidiParagraph(utf8: bytes)
        let plain = Self.kept(paragraph.line().visualScalars(mirrored: true))
        let marks = Self.kept(paragraph.line(combiningMarks: .afterBase).visualScalars(mirrored: true))
        let (icuPlain, icuMarks) = (icu(false), icu(true))
        if plain != marks { changedByL3 += 1 }
        if plain != icuPlain { differentWithout += 1 }
        if marks != icuMarks {
          differentWith += 1
          if firstDifference == nil && plain == icuPlain {
            firstDifference =
              "  text: \(String(decoding: bytes, as: UTF8.self))\n  ours: \(Self.hex(marks))\n  ICU:  \(Self.hex(icuMarks))"
          }
        }
      }
    }
  }

  /// `scalars` without the characters either side may drop.
  static func kept(_ scalars: [UInt32]) -> [UInt32] {
    scalars.filter { scalar in
      if (0x200C...0x200F).contains(scalar) || (0x202A...0x202E).contains(scalar) || (0x2066...0x2069).contains(scalar)
      {
        return false
      }
      return !BidiClass(scalar).isRemovedByX9
    }
  }

  static func hex(_ scalars: [UInt32]) -> String {
    scalars.map { String($0, radix: 16, uppercase: true) }.joined(separator: " ")
  }
}

/// Prints the `--l3` table for `kinds`.
func reportCombiningMarks(_ kinds: [Corpus.Kind], megabytes: Double) {
  print("L3 (combining marks after their base) against ICU ubidi_writeReordered(UBIDI_KEEP_BASE_COMBINING), mirrored")
  var table = Table(["corpus", "paragraphs", "changed by L3", "differ without L3", "differ with L3"])
  var examples: [String] = []
  for kind in kinds {
    let check = CombiningMarkCheck(corpus: Corpus.generate(kind, bytes: Int(megabytes * 1_000_000)))
    table.add(
      [kind.rawValue]
        + [check.paragraphs, check.changedByL3, check.differentWithout, check.differentWith].map(String.init))
    if let first = check.firstDifference {
      examples.append("\(kind.rawValue), first paragraph L3 alone sets apart:\n\(first)")
    }
  }
  print(table.render())
  for example in examples { print(example) }
}
