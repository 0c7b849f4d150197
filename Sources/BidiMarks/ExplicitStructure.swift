import UnicodeBidi

/// How the explicit formatting characters of a line pair up, per paragraph.
///
/// Isolates pair as UAX #9 BD9 says: a PDI matches the nearest isolate
/// initiator still open in its paragraph, and closes every embedding or
/// override opened after that initiator. A PDF closes the innermost open
/// embedding or override, but only when no isolate was opened after it (rule
/// X7). Everything still open at a paragraph separator is unmatched. Depth
/// limits (X5–X6 overflow) are not modelled: they do not change BD9 matching.
struct ExplicitStructure: Sendable {
  /// For an opener, the index of its closer; for a closer, its opener's;
  /// -1 for an unmatched control and for every other character.
  let partner: [Int32]

  init(classes: [BidiClass], paragraphs: [Range<Int>]) {
    var partner = [Int32](repeating: -1, count: classes.count)
    Self.pair(classes, paragraphs) { opener, closer in
      partner[opener] = Int32(closer)
      partner[closer] = Int32(opener)
    } closedByIsolate: { _ in
    }
    self.partner = partner
  }

  /// The explicit controls of `classes` that nothing pairs when the whole
  /// line is one context, as GCC's `-Wbidi-chars=unpaired` (and so
  /// `HazardScanner`'s whole-line rules) pair them: openers still open at the
  /// end, PDFs and PDIs that close nothing. An embedding or override that a
  /// PDI closes with its isolate counts as closed.
  static func unpairedControls(_ classes: [BidiClass]) -> [Int] {
    var paired = [Bool](repeating: false, count: classes.count)
    pair(classes, [0..<classes.count]) { opener, closer in
      paired[opener] = true
      paired[closer] = true
    } closedByIsolate: {
      paired[$0] = true
    }
    return classes.indices.filter { index in
      switch classes[index] {
      case .LRE, .RLE, .LRO, .RLO, .PDF, .LRI, .RLI, .FSI, .PDI: return !paired[index]
      default: return false
      }
    }
  }

  /// Pairs the controls of each paragraph: `matched(opener, closer)` for each
  /// pair, `closedByIsolate(opener)` for an embedding or override that a PDI
  /// closes together with its isolate.
  private static func pair(
    _ classes: [BidiClass], _ paragraphs: [Range<Int>], matched: (Int, Int) -> Void,
    closedByIsolate: (Int) -> Void
  ) {
    var stack: [(index: Int, isolate: Bool)] = []
    for paragraph in paragraphs {
      stack.removeAll(keepingCapacity: true)
      var openIsolates = 0
      for index in paragraph {
        switch classes[index] {
        case .LRI, .RLI, .FSI:
          stack.append((index, true))
          openIsolates += 1
        case .LRE, .RLE, .LRO, .RLO:
          stack.append((index, false))
        case .PDF:
          if let top = stack.last, !top.isolate {
            stack.removeLast()
            matched(top.index, index)
          }
        case .PDI:
          guard openIsolates > 0 else { break }
          while let top = stack.popLast() {
            if top.isolate {
              matched(top.index, index)
              openIsolates -= 1
              break
            }
            closedByIsolate(top.index)
          }
        default:
          break
        }
      }
    }
  }

  /// The matching closer or opener of a control, or nil.
  func partner(of index: Int) -> Int? {
    let value = partner[index]
    return value < 0 ? nil : Int(value)
  }
}

extension MarkPlanner {
  /// The partner of an explicit control at a scalar index, or nil.
  func partner(of index: Int) -> Int? {
    structure?.partner(of: index)
  }

  /// True when the scalar at `index` is an isolate initiator whose matching
  /// PDI is at `pdi`.
  func isIsolate(from index: Int, to pdi: Int) -> Bool {
    guard index >= 0, pdi < scalars.count, index < pdi else { return false }
    switch classes[index] {
    case .LRI, .RLI, .FSI: return partner(of: index) == pdi
    default: return false
    }
  }

  /// The end (exclusive) of the explicit unit that starts at an opener:
  /// after its matching closer, or the end of `limit` when it has none.
  func unitEnd(from index: Int, limit: Range<Int>) -> Int {
    if let closer = partner(of: index), closer < limit.upperBound { return closer + 1 }
    return limit.upperBound
  }
}
