// shape-compare: `bidi-lsp visual --shape` against ICU's u_shapeArabic on the
// same reordered lines (issue 29). For each file, bidi-lsp writes the visual
// order twice, unshaped (`visual --no-shape`) and shaped (`visual --shape`);
// ICU shapes every unshaped line as visual left-to-right text
// (`bench_icu_shape_visual` in CICU/shim.h) and the lines are compared byte
// for byte. Lines that differ are also compared with ICU's harakat
// presentation forms (U+FE70–U+FE7F, which ICU writes for every haraka and
// bidi-lsp, like fribidi, does not) read back as the marks, and the first
// differing character pair of each line is tallied. See Benchmarks/README.md.

import BidiCorpus
import CICU
import Glibc

struct Options {
  var ours = "../.build/release/bidi-lsp"
  var megabytes = 10
  var directory = "/tmp/cli-bench"
  /// Files to compare instead of the four generated corpora.
  var files: [String] = []
  /// With one file: write ICU's shaping of its lines here.
  var writeICU: String?
  var tashkeelIsolated = false
  /// ICU's own pipeline instead: u_shapeArabic on the logical line, then ubidi.
  var logical = false

  init?(_ arguments: [String]) {
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      switch argument {
      case "--ours": ours = rest.popFirst() ?? ours
      case "--size": megabytes = rest.popFirst().flatMap { Int($0) } ?? megabytes
      case "--dir": directory = rest.popFirst() ?? directory
      case "--file": files += rest.popFirst().map { [$0] } ?? []
      case "--write-icu": writeICU = rest.popFirst()
      case "--tashkeel-isolated": tashkeelIsolated = true
      case "--logical": logical = true
      default:
        print(
          """
          usage: shape-compare [--ours PATH] [--size MB] [--dir DIR] [--file PATH]... [--write-icu OUT]
                               [--tashkeel-isolated] [--logical]
            --ours PATH           the bidi-lsp to compare (default ../.build/release/bidi-lsp)
            --size MB             size of each generated corpus (default 10, as cli-bench)
            --dir DIR             where the corpora are (written if missing; default /tmp/cli-bench)
            --file PATH           compare this file instead of the corpora (repeatable)
            --write-icu OUT       with one --file: write ICU's shaping of its visual lines to OUT
            --tashkeel-isolated   U_SHAPE_LETTERS_SHAPE_TASHKEEL_ISOLATED instead of U_SHAPE_LETTERS_SHAPE
            --logical             ICU's own pipeline: u_shapeArabic on the logical line (LETTERS_SHAPE;
                                  its harakat forms read back as the marks), then ubidi_setPara and ubidi_writeReordered (mirroring, controls removed,
                                  marks after their base), ALM (U+061C, which ubidi keeps) dropped,
                                  and the units ICU 72 counts but does not write (a mark after a
                                  removed control) left out
          """)
        return nil
      }
    }
  }
}

guard let options = Options(Array(CommandLine.arguments.dropFirst())) else { exit(2) }
guard access(options.ours, X_OK) == 0 else {
  print("shape-compare: no bidi-lsp at \(options.ours); build it with `swift build -c release` in the repository root")
  exit(2)
}

func readFile(_ path: String) -> [UInt8]? {
  guard let file = fopen(path, "rb") else { return nil }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let count = fread(&chunk, 1, chunk.count, file)
    if count <= 0 { break }
    bytes += chunk[0..<count]
  }
  return bytes
}

func writeFile(_ path: String, _ bytes: [UInt8]) -> Bool {
  guard let file = fopen(path, "wb") else { return false }
  defer { fclose(file) }
  return bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) } == bytes.count
}

/// Runs `ours` with `arguments`, standard output to `output`; true on status 0.
func run(_ arguments: [String], output: String) -> Bool {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  let argv = ([options.ours] + arguments).map { strdup($0) } + [nil]
  defer { for pointer in argv { free(pointer) } }
  var pid: pid_t = 0
  guard posix_spawn(&pid, options.ours, &actions, nil, argv, environ) == 0 else { return false }
  var status: Int32 = 0
  while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  return status == 0
}

func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
  var result = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
  if result.last?.isEmpty == true { result.removeLast() }
  return result
}

/// ICU's shaping of one visual line (UTF-8 in, UTF-8 out); nil on an ICU error.
struct ICUShaper {
  var units = [UInt16](repeating: 0, count: 1 << 16)
  var shaped = [UInt16](repeating: 0, count: 1 << 16)
  var bytes = [CChar](repeating: 0, count: 1 << 18)
  let tashkeelIsolated: Bool

  mutating func shape(_ line: ArraySlice<UInt8>) -> [UInt8]? {
    if units.count < line.count + 1 {
      units = [UInt16](repeating: 0, count: line.count + 1)
      shaped = units
      bytes = [CChar](repeating: 0, count: 3 * line.count + 4)
    }
    var error = U_ZERO_ERROR
    let length = line.withUnsafeBytes { raw in
      bench_icu_from_utf8(
        &units, Int32(units.count), raw.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(raw.count), &error)
    }
    guard bench_icu_failure(error) == 0 else { return nil }
    let count = bench_icu_shape_visual(&units, length, &shaped, Int32(shaped.count), tashkeelIsolated ? 1 : 0, &error)
    guard bench_icu_failure(error) == 0 else { return nil }
    let written = bench_icu_to_utf8(&bytes, Int32(bytes.count), &shaped, count, &error)
    guard bench_icu_failure(error) == 0 else { return nil }
    return bytes[0..<Int(written)].map { UInt8(bitPattern: $0) }
  }
}

extension ICUShaper {
  /// ICU's pipeline on one logical line: shape, then reorder.
  mutating func shapeThenReorder(_ line: ArraySlice<UInt8>, bidi: OpaquePointer) -> [UInt8]? {
    if units.count < line.count + 1 {
      units = [UInt16](repeating: 0, count: line.count + 1)
      shaped = units
      bytes = [CChar](repeating: 0, count: 3 * line.count + 4)
    }
    var error = U_ZERO_ERROR
    let length = line.withUnsafeBytes { raw in
      bench_icu_from_utf8(
        &units, Int32(units.count), raw.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(raw.count), &error)
    }
    guard bench_icu_failure(error) == 0 else { return nil }
    let count = bench_icu_shape_logical(&units, length, &shaped, Int32(shaped.count), &error)
    guard bench_icu_failure(error) == 0 else { return nil }
    // ICU's harakat forms are letters (Lo, bidi class AL), not marks: read
    // back as the marks before ubidi, they stay after their base (L3) as
    // bidi-lsp's do, and the comparison is of the letters.
    for k in 0..<Int(count) where (0xFE70...0xFE7F).contains(shaped[k]) {
      shaped[k] = UInt16(withoutTashkeelForms([UInt32(shaped[k])])[0])
    }
    // ICU 72's ubidi_writeReordered with UBIDI_KEEP_BASE_COMBINING drops
    // the marks that follow a removed control (a haraka after ZWNJ) and
    // still counts them in the length it returns: the destination is
    // cleared first, and the units it did not write (U+0000) are dropped.
    for k in units.indices { units[k] = 0 }
    var visual = shaped.withUnsafeBufferPointer { source -> Int32 in
      bench_icu_set_para(bidi, source.baseAddress, count, bench_icu_default_ltr(), &error)
      guard bench_icu_failure(error) == 0 else { return 0 }
      return bench_icu_write_reordered(bidi, &units, Int32(units.count), 1, &error)
    }
    guard bench_icu_failure(error) == 0 else { return nil }
    var kept = 0
    for k in 0..<Int(visual) where units[k] != 0x061C && units[k] != 0 {
      units[kept] = units[k]
      kept += 1
    }
    visual = Int32(kept)
    let written = bench_icu_to_utf8(&bytes, Int32(bytes.count), &units, visual, &error)
    guard bench_icu_failure(error) == 0 else { return nil }
    return bytes[0..<Int(written)].map { UInt8(bitPattern: $0) }
  }
}

func scalars(_ bytes: some Collection<UInt8>) -> [UInt32] {
  String(decoding: bytes, as: UTF8.self).unicodeScalars.map(\.value)
}

/// ICU's harakat presentation forms read back as the marks: U+FE70–U+FE7F
/// are the isolated and medial forms of U+064B–U+0652 (U+FE73 unassigned).
func withoutTashkeelForms(_ text: [UInt32]) -> [UInt32] {
  let marks: [UInt32] = [
    0x64B, 0x64B, 0x64C, 0, 0x64D, 0, 0x64E, 0x64E, 0x64F, 0x64F, 0x650, 0x650, 0x651, 0x651, 0x652, 0x652,
  ]
  return text.map { (0xFE70...0xFE7F).contains($0) && marks[Int($0 - 0xFE70)] != 0 ? marks[Int($0 - 0xFE70)] : $0 }
}

func hex(_ value: UInt32?) -> String {
  guard let value else { return "end" }
  let digits = String(value, radix: 16, uppercase: true)
  return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

struct Result {
  var name: String
  var lines = 0
  var shapedLines = 0
  var equal = 0
  var equalWithoutTashkeelForms = 0
  var icuErrors = 0
  var pairs: [String: (count: Int, example: Int)] = [:]
}

func compare(name: String, path: String) -> Result? {
  let plainPath = "\(options.directory)/\(name).noshape.out"
  let shapedPath = "\(options.directory)/\(name).shape.out"
  guard run(["visual", "--no-shape", path], output: plainPath), run(["visual", "--shape", path], output: shapedPath),
    var plain = readFile(plainPath), let shaped = readFile(shapedPath)
  else {
    print("shape-compare: bidi-lsp visual failed on \(path)")
    return nil
  }
  if options.logical {
    guard let source = readFile(path) else { return nil }
    plain = source
  }
  let plainLines = lines(plain)
  let oursLines = lines(shaped)
  guard plainLines.count == oursLines.count else {
    print("shape-compare: \(name): \(plainLines.count) lines unshaped, \(oursLines.count) shaped")
    return nil
  }
  var result = Result(name: name, lines: plainLines.count)
  var shaper = ICUShaper(tashkeelIsolated: options.tashkeelIsolated)
  var icuOutput: [UInt8] = []
  var error = U_ZERO_ERROR
  guard let bidi = bench_icu_open(0, &error), bench_icu_failure(error) == 0 else { return nil }
  defer { bench_icu_close(bidi) }
  for (index, (line, ours)) in zip(plainLines, oursLines).enumerated() {
    guard let icu = options.logical ? shaper.shapeThenReorder(line, bidi: bidi) : shaper.shape(line) else {
      result.icuErrors += 1
      continue
    }
    if options.writeICU != nil { icuOutput += icu + [0x0A] }
    if options.logical == false && line.elementsEqual(ours) == false { result.shapedLines += 1 }
    if icu.elementsEqual(ours) {
      result.equal += 1
      result.equalWithoutTashkeelForms += 1
      continue
    }
    let a = scalars(ours)
    let b = withoutTashkeelForms(scalars(icu))
    if a == b {
      result.equalWithoutTashkeelForms += 1
      continue
    }
    let k = zip(a, b).prefix { $0 == $1 }.count
    let key = "ours \(hex(k < a.count ? a[k] : nil)), ICU \(hex(k < b.count ? b[k] : nil))"
    let old = result.pairs[key] ?? (0, index + 1)
    result.pairs[key] = (old.count + 1, old.example)
  }
  if let out = options.writeICU, writeFile(out, icuOutput) == false {
    print("shape-compare: cannot write \(out)")
    return nil
  }
  return result
}

var version: [UInt8] = [0, 0, 0, 0]
bench_icu_unicode_version(&version)
print(
  "shape-compare: \(options.ours) visual --shape vs ICU u_shapeArabic (Unicode \(version[0]).\(version[1]) data)"
    + (options.logical
      ? " on each logical line, then ubidi; options LOGICAL | LAMALEF_RESIZE | PRESERVE_PRESENTATION | LETTERS_SHAPE"
      : " on the lines of visual --no-shape; options VISUAL_LTR | LAMALEF_RESIZE | PRESERVE_PRESENTATION | "
        + (options.tashkeelIsolated ? "LETTERS_SHAPE_TASHKEEL_ISOLATED" : "LETTERS_SHAPE")))

var files: [(name: String, path: String)] = []
if options.files.isEmpty {
  mkdir(options.directory, 0o755)
  for kind in [Corpus.Kind.prose, .rtlCode, .asciiCode, .isolates] {
    let name = kind == .isolates ? "rtl-heavy" : kind.rawValue
    let path = "\(options.directory)/\(name).txt"
    if access(path, R_OK) != 0 {
      let corpus = Corpus.generate(kind, bytes: options.megabytes * 1_000_000)
      guard writeFile(path, corpus.text) else {
        print("shape-compare: cannot write \(path)")
        exit(1)
      }
    }
    files.append((name, path))
  }
} else {
  mkdir(options.directory, 0o755)
  for path in options.files {
    let base = path.split(separator: "/").last.map(String.init) ?? path
    files.append((base, path))
  }
}
if options.writeICU != nil && files.count != 1 {
  print("shape-compare: --write-icu needs exactly one --file")
  exit(2)
}

var failed = false
for file in files {
  guard let result = compare(name: file.name, path: file.path) else {
    failed = true
    continue
  }
  print("")
  print(
    "\(result.name): \(result.lines) lines"
      + (options.logical ? ";" : ", \(result.shapedLines) changed by shaping;")
      + " equal to ICU: \(result.equal); equal with ICU's harakat forms read as the marks:"
      + " \(result.equalWithoutTashkeelForms); ICU errors: \(result.icuErrors)")
  for (key, value) in result.pairs.sorted(by: { $0.value.count > $1.value.count }).prefix(12) {
    print("  \(value.count) lines first differ at \(key) (e.g. line \(value.example))")
  }
}
exit(failed ? 1 : 0)
