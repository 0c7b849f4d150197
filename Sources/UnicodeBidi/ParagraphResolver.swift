// UAX #9, section 3.3: resolving the embedding levels of one paragraph.
//
// The phases live in files named after them: ExplicitLevels.swift (X1–X9),
// IsolatingRunSequences.swift (X10, BD13), WeakTypes.swift (W1–W7),
// BracketPairs.swift (N0, BD16), NeutralTypes.swift (N1–N2) and
// ImplicitLevels.swift (I1–I2). Lines (L1–L4) are in LineReordering.swift.

/// Resolves the levels of a paragraph held in a `ParagraphStorage`, with
/// scratch memory that lives for one resolution.
struct ParagraphResolver {
  let count: Int
  let scalars: UnsafeMutablePointer<UInt32>
  /// The original classes.
  let classes: UnsafeMutablePointer<BidiClass>
  /// Resolved levels; bit 7 marks characters removed by X9.
  let levels: UnsafeMutablePointer<UInt8>
  let paragraphLevel: UInt8
  let present: BidiClassSet
  let hasBrackets: Bool

  /// The current types: the classes as the rules change them.
  let types: UnsafeMutablePointer<BidiClass>
  /// BD9: for an isolate initiator, the index of its matching PDI or -1.
  /// Filled only when the paragraph holds isolate initiators.
  let matchingPDI: UnsafeMutablePointer<Int32>
  /// The characters of the isolating run sequence being resolved.
  let sequenceIndices: UnsafeMutablePointer<Int32>
  /// Their current types, contiguous.
  let sequenceTypes: UnsafeMutablePointer<BidiClass>
  private let scratch: UnsafeMutableRawPointer

  init(_ storage: ParagraphStorage) {
    count = storage.count
    scalars = storage.scalars
    classes = storage.classes
    levels = storage.levels
    paragraphLevel = storage.paragraphLevel
    present = storage.present
    hasBrackets = storage.hasBrackets
    let n = max(count, 1)
    scratch = UnsafeMutableRawPointer.allocate(byteCount: n * 10, alignment: 4)
    matchingPDI = scratch.bindMemory(to: Int32.self, capacity: n)
    sequenceIndices = (scratch + n * 4).bindMemory(to: Int32.self, capacity: n)
    types = (scratch + n * 8).bindMemory(to: BidiClass.self, capacity: n)
    sequenceTypes = (scratch + n * 9).bindMemory(to: BidiClass.self, capacity: n)
  }

  func deallocate() { scratch.deallocate() }

  /// Resolves every level (X1–I2) of a paragraph that needs the full
  /// algorithm.
  func resolve() {
    types.update(from: classes, count: count)
    if present.intersects(.explicitControls) || present.contains(.BN) {
      if present.intersects(.isolateControls) { findMatchingPDIs() }
      resolveExplicitLevels()
    } else {
      // Without explicit controls, X1–X9 give every character the
      // paragraph level and remove nothing.
      levels.update(repeating: paragraphLevel, count: count)
    }
    forEachIsolatingRunSequence { sequence in
      resolveWeakTypes(sequence)
      if hasBrackets { resolvePairedBrackets(sequence) }
      resolveNeutralTypes(sequence)
      resolveImplicitLevels(sequence)
    }
  }
}
