// `bidi-lsp check` on plain text, where it skips the daemon's way of scanning: the AVX-512 and
// AVX2 control searches (`cbs_find_bidi_controls`, 64 bytes a round, a sequence cut by a block's
// end carried to the next) against the SSE2 loop and the byte loop, walked from the text's start as its callers
// walk it, on a copy of exactly the text's size (AddressSanitizer sees any read past it); then
// the text as a file through `runCheck` (one pass with the controls of a window of lines found
// ahead, and `--jobs 2` in small parts), whose report must be the line-by-line scan's
// (`HazardScanner.scanDocument`, each line searched alone, the visual order as the daemon adds
// it). Input: one byte choosing raw bytes or pieces (controls, letters, ill-formed sequences,
// line breaks: text dense with what the scans decide), one the search's capacity, then the
// text. Inputs of any length from the first run (`-len_control=0`), so that 64-byte blocks and
// their edges are reached at once.
//
// fuzz-options: -max_len=8192 -len_control=0
import BidiCommands
import BidiHazards
import CByteScan
import Glibc

/// What a piece byte picks from: bidi controls, letters of one to four
/// bytes, ill-formed sequences (cut off, stray, over-long, a surrogate,
/// bytes never in UTF-8) and line breaks.
private let pieces: [[UInt8]] =
  [
    "\u{202E}", "\u{202D}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
    "\u{61C}", "\u{200E}", "\u{200F}", "\u{627}\u{644} ", "\u{5E9}", "ab ", " ", "x", "\u{2014}", "\u{4E2D}",
    "\u{1F600}", "1", "(", "\n", "\r\n", "\r",
  ].map { Array($0.utf8) } + [
    [0xE2], [0xE2, 0x80], [0xE2, 0x80, 0x2E], [0xE2, 0x81], [0xD8], [0x9C], [0x80, 0xBF], [0xC0, 0xAE],
    [0xED, 0xA0, 0x80], [0xE0, 0x80, 0xAE], [0xF0, 0x80, 0x80, 0x80], [0xFF], [0xF5, 0x80],
  ]

/// The controls `cbs_find_bidi_controls` finds from `start` at vector
/// `level` (0 the byte loop, 1 SSE2, 2 AVX2 and 3 AVX-512 where the processor has them),
/// with room for `capacity`, and where it stopped.
private func search(_ text: UnsafeBufferPointer<UInt8>, from start: Int, capacity: Int, level: Int32) -> [Int] {
  let before = cbs_set_vector_level(level)
  defer { _ = cbs_set_vector_level(before) }
  var offsets = [Int](repeating: -1, count: capacity)
  var controls = [UInt32](repeating: 0, count: capacity)
  var end = -1
  let found = cbs_find_bidi_controls(
    text.baseAddress ?? UnsafePointer(bitPattern: 1)!, start, text.count, &offsets, &controls, capacity, &end)
  return Array(offsets.prefix(found)) + controls.prefix(found).map(Int.init) + [end]
}

/// The searches of a walk from the start (after a full batch on from its
/// end, after a stop from the next byte that is not a continuation byte),
/// the same at every vector level.
private func checkSearchWalk(_ bytes: [UInt8], capacity: Int) {
  // A copy of exactly the text's size: a read past it is AddressSanitizer's.
  let text = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
  defer { text.deallocate() }
  _ = text.initialize(from: bytes)
  let view = UnsafeBufferPointer(text)
  var i = 0
  while i < bytes.count {
    let results = (0...3).map { search(view, from: i, capacity: capacity, level: Int32($0)) }
    guard results.allSatisfy({ $0 == results[0] }) else {
      fuzzFailure(
        "search from \(i), capacity \(capacity): bytes \(results[0]), SSE2 \(results[1]), AVX2 \(results[2]), "
          + "AVX-512 \(results[3])")
    }
    let found = (results[0].count - 1) / 2
    let end = results[0].last!
    guard end >= i, end <= bytes.count else { fuzzFailure("search from \(i) ended at \(end)") }
    if found == capacity {
      guard end > i else { fuzzFailure("a full batch from \(i) did not move") }
      i = end
      continue
    }
    i = end + 1
    while i < bytes.count && bytes[i] & 0xC0 == 0x80 { i += 1 }
  }
}

/// The line-by-line scan's text report, with the visual order as the
/// daemon's renderer adds it.
private func expectedReport(_ bytes: [UInt8], path: String) -> [UInt8] {
  var scanner = HazardScanner(language: nil)
  scanner.renderer = HazardScanner.visualOrderRenderer
  return Array(
    scanner.scanDocument(bytes).map { d in
      "\(path):\(d.line + 1):\(d.range.lowerBound + 1): \(d.severity.rawValue): \(d.message) [\(d.code.rawValue)]\n"
    }.joined().utf8)
}

/// The file the text is checked from, one per process.
private let path = "/tmp/bidi-fuzz-check-plain-\(getpid()).txt"

private func write(_ bytes: [UInt8], to path: String) {
  guard let file = fopen(path, "wb") else { fuzzFailure("cannot create \(path)") }
  let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
  fclose(file)
  guard written == bytes.count else { fuzzFailure("cannot write \(path)") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCheckPlain(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  let raw = input.byte() & 3 == 0
  let capacity = [1, 2, 3, 7, 64, 4096][input.number(below: 6)]
  var bytes: [UInt8] = []
  if raw {
    // (No NUL: `check` skips a file with one in its first 8 KiB as binary.)
    bytes = input.rest().map { $0 == 0 ? 0x20 : $0 }
    // (Nor a UTF-16 byte order mark: `check` reads such a file as UTF-16.)
    if bytes.count >= 2 && bytes[0] | 1 == 0xFF && bytes[1] | 1 == 0xFF && bytes[0] != bytes[1] {
      bytes.insert(0x78, at: 0)
    }
  } else {
    while !input.isEmpty { bytes += pieces[input.number(below: pieces.count)] }
  }
  checkSearchWalk(bytes, capacity: capacity)

  write(bytes, to: path)
  let expected = expectedReport(bytes, path: path)
  for arguments in [["--jobs", "1"], ["--jobs", "2"]] {
    var out: [UInt8] = []
    var err = ""
    let status = runCheck(
      arguments: arguments + [path], output: { out += $0 }, stderr: { err += $0 },
      visualOrder: HazardScanner.visualOrderWriter, version: "fuzz", partMinimum: 64)
    guard err.isEmpty, status == (expected.isEmpty ? 0 : 1) else {
      fuzzFailure("check \(arguments): status \(status), stderr \(err)")
    }
    guard out == expected else {
      fuzzFailure(
        "check \(arguments) differs from the line-by-line scan: \(String(decoding: out, as: UTF8.self))"
          + " / expected \(String(decoding: expected, as: UTF8.self))")
    }
  }
  return 0
}
