import BidiHazards
import BidiTestSupport
import UnicodeBidi
import XCTest

/// The balanced-line shortcut (`HazardScanner.isBalanced`) against the
/// pairing analysis it skips: on lines of random controls and words, with
/// and without a language, the scan finds the same hazards either way.
final class BalancedLinesTests: XCTestCase {
  static let controls: [BidiControl] = [.lre, .rle, .lro, .rlo, .pdf, .lri, .rli, .fsi, .pdi, .lrm, .rlm, .alm]

  static let words = ["abc", "مرحبا", "שלום", " ", "1.5", "x = y", "(", ")", "\"s\"", "// c", "# c"]

  /// A line of `count` random pieces: words, spaces and controls, mostly
  /// unbalanced.
  static func randomLine(_ count: Int, using generator: inout some RandomNumberGenerator) -> [UInt8] {
    var line: [UInt8] = []
    for _ in 0..<count {
      switch Int.random(in: 0..<10, using: &generator) {
      case 0..<4: line += words.randomElement(using: &generator)!.utf8
      case 4..<6: line += [BidiControl.lri, .rli, .fsi, .lre, .rle].randomElement(using: &generator)!.utf8
      case 6..<8: line += [BidiControl.pdi, .pdi, .pdf].randomElement(using: &generator)!.utf8
      default: line += controls.randomElement(using: &generator)!.utf8
      }
    }
    return line
  }

  /// A balanced line of words, marks and nested scopes (an isolate's PDI
  /// sometimes closing an embedding left open inside it), `depth` deep at
  /// most.
  static func balancedLine(depth: Int, using generator: inout some RandomNumberGenerator) -> [UInt8] {
    var line: [UInt8] = []
    for _ in 0..<Int.random(in: 1...4, using: &generator) {
      switch Int.random(in: 0..<6, using: &generator) {
      case 0, 1: line += words.randomElement(using: &generator)!.utf8
      case 2: line += [BidiControl.lrm, .rlm, .alm].randomElement(using: &generator)!.utf8
      case 3 where depth > 0:
        line += [BidiControl.lre, .rle, .lro, .rlo].randomElement(using: &generator)!.utf8
        line += balancedLine(depth: depth - 1, using: &generator) + BidiControl.pdf.utf8
      case 4 where depth > 0:
        line += [BidiControl.lri, .rli, .fsi].randomElement(using: &generator)!.utf8
        line += balancedLine(depth: depth - 1, using: &generator)
        if Bool.random(using: &generator) { line += BidiControl.rle.utf8 + words[1].utf8 }
        line += BidiControl.pdi.utf8
      default: line += words.randomElement(using: &generator)!.utf8
      }
    }
    return line
  }

  func scan(_ line: [UInt8], language: SourceLanguage?, shortcut: Bool) -> LineScan {
    var scanner = HazardScanner(language: language, renderer: HazardScanner.visualOrderRenderer)
    scanner.checksBalancedLinesFirst = shortcut
    return scanner.scanLine(line, lineNumber: 0)
  }

  func testSameHazardsWithAndWithoutTheShortcut() {
    var generator = SeededGenerator(seed: 0xBA1A)
    // Lines the shortcut answers alone, and lines with controls it passes on.
    var balanced = 0
    var analysed = 0
    for trial in 0..<6_000 {
      let line =
        trial.isMultiple(of: 2)
        ? Self.randomLine(Int.random(in: 1...24, using: &generator), using: &generator)
        : Self.balancedLine(depth: 3, using: &generator)
      let language: SourceLanguage? = trial % 3 == 0 ? nil : trial % 3 == 1 ? .swift : .python
      let fast = scan(line, language: language, shortcut: true)
      let full = scan(line, language: language, shortcut: false)
      XCTAssertEqual(fast, full, String(decoding: line, as: UTF8.self))
      let controls = line.withUnsafeBufferPointer { buffer in
        var found = BidiControlList()
        _ = BidiControl.appendControls(in: buffer, from: 0, to: &found)
        return found
      }
      if !controls.isEmpty {
        if HazardScanner.isBalanced(controls) { balanced += 1 } else { analysed += 1 }
      }
    }
    // Both kinds of line were tried, many times.
    XCTAssertGreaterThan(balanced, 500)
    XCTAssertGreaterThan(analysed, 500)
  }

  /// A line nesting `depth` scopes (isolates and embeddings at random, a
  /// word in each), closed innermost first: a PDI closes its isolate and
  /// sometimes the embeddings left open inside it. `mutations` random
  /// controls are then inserted, removed or replaced, so most such lines are
  /// unbalanced somewhere deep inside.
  static func nestedLine(depth: Int, mutations: Int, using generator: inout some RandomNumberGenerator) -> [UInt8] {
    var pieces: [[UInt8]] = []
    var open: [Bool] = []  // true: an isolate
    for _ in 0..<depth {
      let isolate = Bool.random(using: &generator)
      let opener = isolate ? [BidiControl.lri, .rli, .fsi] : [BidiControl.lre, .rle]
      pieces.append(Array(opener.randomElement(using: &generator)!.utf8))
      pieces.append(Array(words.randomElement(using: &generator)!.utf8))
      open.append(isolate)
    }
    while let isolate = open.popLast() {
      if isolate {
        pieces.append(Array(BidiControl.pdi.utf8))
      } else if open.contains(true) && Int.random(in: 0..<4, using: &generator) == 0 {
        continue  // left for the enclosing isolate's PDI
      } else {
        pieces.append(Array(BidiControl.pdf.utf8))
      }
      if Bool.random(using: &generator) { pieces.append(Array(BidiControl.rlm.utf8)) }
    }
    for _ in 0..<mutations {
      let at = Int.random(in: 0...pieces.count, using: &generator)
      let control = Array(controls.randomElement(using: &generator)!.utf8)
      switch Int.random(in: 0..<3, using: &generator) {
      case 0: pieces.insert(control, at: at)
      case 1 where at < pieces.count: pieces.remove(at: at)
      default: if at < pieces.count { pieces[at] = control }
      }
    }
    return pieces.flatMap { $0 }
  }

  /// Lines nesting past the 64 scopes the shortcut keeps as bits, and up to
  /// them: the shortcut and the pairing analysis agree.
  func testDeepNestingSameHazardsWithAndWithoutTheShortcut() {
    var generator = SeededGenerator(seed: 0xDEE9)
    var balanced = 0
    var unbalanced = 0
    for trial in 0..<1_200 {
      let depth = [1, 2, 8, 62, 63, 64, 65, 66, 100, 200].randomElement(using: &generator)!
      let line = Self.nestedLine(depth: depth, mutations: trial % 3, using: &generator)
      let language: SourceLanguage? = trial % 4 == 0 ? .swift : nil
      let fast = scan(line, language: language, shortcut: true)
      let full = scan(line, language: language, shortcut: false)
      XCTAssertEqual(fast, full, "depth \(depth): " + String(decoding: line, as: UTF8.self))
      if depth > 64 && language == nil {
        if full.diagnostics.isEmpty { balanced += 1 } else { unbalanced += 1 }
      }
    }
    // Deep lines of both kinds were tried.
    XCTAssertGreaterThan(balanced, 50)
    XCTAssertGreaterThan(unbalanced, 50)
  }

  /// `balancedPrefix` against the pairing rules stated plainly: where it
  /// stops (the first override or closer that closes nothing), and the
  /// scopes open there (what the pairing analysis goes on from).
  func testBalancedPrefixAgainstThePairingRules() {
    var generator = SeededGenerator(seed: 0x9F1E)
    for trial in 0..<20_000 {
      let count = Int.random(in: 0...(trial % 10 == 0 ? 300 : 24), using: &generator)
      // Mostly openers and closers (few overrides, so that lines go far).
      let pool: [BidiControl] = [.lre, .rle, .lri, .rli, .fsi, .pdf, .pdi, .pdi, .pdf, .lrm, .alm, .rlm]
      let list = (0..<count).map { _ -> BidiControl in
        Int.random(in: 0..<40, using: &generator) == 0
          ? [.lro, .rlo].randomElement(using: &generator)! : pool.randomElement(using: &generator)!
      }
      // The rules: a stack of (index, isolate).
      var stack: [(Int, Bool)] = []
      var end = list.count
      for (k, control) in list.enumerated() {
        if control.isOverride { end = k; break }
        if control.isOpener { stack.append((k, control.isIsolateOpener)) }
        if control == .pdf {
          guard let top = stack.last, !top.1 else { end = k; break }
          stack.removeLast()
        }
        if control == .pdi {
          guard let at = stack.lastIndex(where: { $0.1 }) else { end = k; break }
          stack.removeSubrange(at...)
        }
      }
      let controls = BidiControlList(list.enumerated().map { ($0.offset * 3, $0.element) })
      var open = [Int](repeating: -7, count: count)
      let found = open.withUnsafeMutableBufferPointer { HazardScanner.balancedPrefix(controls, open: $0.baseAddress!) }
      XCTAssertEqual(found.end, end, "\(list.map(\.shortName))")
      XCTAssertEqual(Array(open[..<found.depth]), stack.map { $0.0 << 1 | ($0.1 ? 1 : 0) }, "\(list.map(\.shortName))")
      XCTAssertEqual(HazardScanner.isBalanced(controls), end == list.count && stack.isEmpty)
    }
  }

  func testBalancedAndUnbalancedExamples() {
    func controls(_ list: [BidiControl]) -> BidiControlList {
      BidiControlList(list.enumerated().map { ($0.offset * 3, $0.element) })
    }
    XCTAssertTrue(HazardScanner.isBalanced(controls([.rli, .lre, .pdi])))  // PDI closes the embedding too
    XCTAssertTrue(HazardScanner.isBalanced(controls([.lre, .rli, .pdi, .pdf, .lrm])))
    XCTAssertFalse(HazardScanner.isBalanced(controls([.rli, .pdf, .pdi])))  // PDF inside an isolate
    XCTAssertFalse(HazardScanner.isBalanced(controls([.pdi])))
    XCTAssertFalse(HazardScanner.isBalanced(controls([.lri])))
    XCTAssertFalse(HazardScanner.isBalanced(controls([.rlo, .pdf])))  // an override is always a hazard
    XCTAssertFalse(HazardScanner.isBalanced(controls([.rli, .rle, .pdi, .pdf])))  // the PDI closed the RLE
    // Past 64 open scopes (the shortcut's bits), and back.
    let deep = Array(repeating: BidiControl.lre, count: 70) + [.rli] + Array(repeating: .rle, count: 5) + [.pdi]
    XCTAssertTrue(HazardScanner.isBalanced(controls(deep + Array(repeating: .pdf, count: 70))))
    XCTAssertFalse(HazardScanner.isBalanced(controls(deep + Array(repeating: .pdf, count: 69))))
    XCTAssertFalse(HazardScanner.isBalanced(controls(deep + Array(repeating: .pdf, count: 71))))
    let isolates = Array(repeating: BidiControl.fsi, count: 64)
    XCTAssertTrue(HazardScanner.isBalanced(controls(isolates + [.lre, .pdf] + Array(repeating: .pdi, count: 64))))
    XCTAssertFalse(HazardScanner.isBalanced(controls(isolates + [.pdf] + Array(repeating: .pdi, count: 64))))
  }
}
