// UAX #9, section 3.3: resolving the embedding levels of one paragraph.
//
// The phases live in files named after them: ExplicitLevels.swift (X1–X9),
// IsolatingRunSequences.swift (X10, BD13), WeakTypes.swift (W1–W7),
// BracketPairs.swift (N0, BD16), NeutralTypes.swift (N1–N2) and
// ImplicitLevels.swift (I1–I2). Lines (L1–L4) are in LineReordering.swift
// and, for a paragraph cut into several, ParagraphLineRuns.swift.

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
  /// The positions of the paired brackets in the paragraph.
  let bracketPositions: UnsafeBufferPointer<Int32>
  /// False when the paragraph holds no explicit control nor BN: then X1–X9
  /// give every character the paragraph level, and the paragraph is one
  /// isolating run sequence.
  let hasExplicit: Bool
  /// False to resolve W1–W7 a run of one class at a time only, without
  /// the stretches of letters of one direction (`resolveWeakTypes`): the
  /// plain path, which tests compare with.
  let stretches: Bool
  /// False to resolve a sequence with paired brackets in three passes
  /// (W1–W7, N0, N1–I2) rather than two (`resolveImplicitTypes`): the
  /// plain path, which tests compare with.
  let pairedBracketsLocally: Bool
  /// The shortest sequence, and the fewest characters for each paired
  /// bracket, with which `pairedBracketsLocally` applies (both 0 with
  /// `ResolverShortcuts.pairedBracketsLocallyAlways`).
  let localBracketsMinimum: Int
  let charactersPerLocalBracket: Int

  /// Room to gather the current types of an isolating run sequence whose
  /// characters are not contiguous.
  let sequenceTypes: UnsafeMutablePointer<BidiClass>
  /// Room for the levels of such a sequence, resolved there and then
  /// copied to `levels` piece by piece (with `hasExplicit`).
  let sequenceLevels: UnsafeMutablePointer<UInt8>
  /// Room for the pieces of such a sequence (with `hasExplicit`).
  let sequencePieces: UnsafeMutablePointer<SequencePiece>
  /// The classes as X1–X8 override them (with `hasExplicit` only).
  let types: UnsafeMutablePointer<BidiClass>
  /// BD9: for an isolate initiator, the index of its matching PDI or -1
  /// (with `hasExplicit` only, filled by `resolveExplicitLevels`).
  let matchingPDI: UnsafeMutablePointer<Int32>
  /// Level runs (BD7), found by `resolveExplicitLevels`: first and last
  /// character (not removed by X9), level (with `hasExplicit`).
  let runStarts: UnsafeMutablePointer<Int32>
  let runEnds: UnsafeMutablePointer<Int32>
  let runLevels: UnsafeMutablePointer<UInt8>
  /// Whether a level run has characters removed by X9 inside it.
  let runHasGaps: UnsafeMutablePointer<Bool>
  /// Two stacks of positions for X1–X8 (with `hasExplicit`): the open
  /// isolate initiators, and those of `findMatchingPDIs`. They lie in the
  /// pieces' memory, which X10 uses only after them.
  let initiatorStack: UnsafeMutablePointer<Int32>
  let pairingStack: UnsafeMutablePointer<Int32>

  /// True when X1–X10 have work to do: the paragraph holds explicit
  /// controls or BN.
  static func needsExplicitRules(_ present: BidiClassSet) -> Bool {
    present.intersects(.explicitControls) || present.contains(.BN)
  }

  /// The bytes of scratch memory a resolution of `storage` needs, with
  /// `ClassScan.slack` bytes past the end for the word reads of run ends.
  static func scratchSize(_ storage: ParagraphStorage) -> Int {
    let n = max(storage.count, 1)
    return (needsExplicitRules(storage.present) ? piecesOffset(n) + n * 8 : n) + ClassScan.slack
  }

  /// The most bytes of scratch memory a resolution of `n` characters needs
  /// (`scratchSize` with explicit controls).
  static func largestScratchSize(_ n: Int) -> Int { piecesOffset(n) + n * 8 + ClassScan.slack }

  /// Where the pieces start in the scratch memory of `n` characters: after
  /// four byte arrays, three of `Int32` and the sequence's levels.
  private static func piecesOffset(_ n: Int) -> Int { (n * 17 + 3) & ~3 }

  /// Resolves `storage` with scratch memory on the stack when it is small;
  /// nil if `stop` (asked between steps) answered true.
  static func resolve(
    _ storage: ParagraphStorage, shortcuts: ResolverShortcuts = .all, until stop: () -> Bool
  ) -> Bool? {
    if let scratch = storage.scratch {
      // A storage used again keeps room for the largest resolution of its
      // capacity.
      return ParagraphResolver(storage, scratch: scratch, shortcuts: shortcuts).resolve(until: stop)
    }
    let size = scratchSize(storage)
    guard size <= stackScratchLimit else {
      // Above the stack limit a temporary allocation would take the
      // runtime's aligned path (posix_memalign), slower for a block of this
      // size (a paragraph of a few hundred characters); the thread's kept
      // block costs no allocation.
      let base = ResolverScratch.blocks.take(size)
      defer { ResolverScratch.blocks.give(base) }
      return ParagraphResolver(storage, scratch: base, shortcuts: shortcuts).resolve(until: stop)
    }
    return withUnsafeTemporaryAllocation(byteCount: size, alignment: 4) { scratch in
      // A temporary allocation always has a base address.
      guard let base = scratch.baseAddress else { return false }
      return ParagraphResolver(storage, scratch: base, shortcuts: shortcuts).resolve(until: stop)
    }
  }

  /// The scratch sizes that a temporary allocation puts on the stack.
  static let stackScratchLimit = 1024

  private init(_ storage: ParagraphStorage, scratch: UnsafeMutableRawPointer, shortcuts: ResolverShortcuts) {
    stretches = shortcuts.contains(.stretches)
    pairedBracketsLocally = !shortcuts.isDisjoint(with: [.pairedBracketsLocally, .pairedBracketsLocallyAlways])
    let always = shortcuts.contains(.pairedBracketsLocallyAlways)
    localBracketsMinimum = always ? 0 : Self.localBracketsMinimum
    charactersPerLocalBracket = always ? 0 : Self.charactersPerLocalBracket
    count = storage.count
    scalars = storage.scalars
    classes = storage.classes
    levels = storage.levels
    paragraphLevel = storage.paragraphLevel
    present = storage.present
    hasBrackets = storage.hasBrackets
    bracketPositions = UnsafeBufferPointer(start: storage.bracketPositions, count: storage.bracketCount)
    hasExplicit = Self.needsExplicitRules(present)
    let n = max(count, 1)
    sequenceTypes = scratch.bindMemory(to: BidiClass.self, capacity: n)
    if hasExplicit {
      matchingPDI = (scratch + n * 4).bindMemory(to: Int32.self, capacity: n)
      runStarts = (scratch + n * 8).bindMemory(to: Int32.self, capacity: n)
      runEnds = (scratch + n * 12).bindMemory(to: Int32.self, capacity: n)
      sequenceLevels = (scratch + n * 16).bindMemory(to: UInt8.self, capacity: n)
      sequencePieces = (scratch + Self.piecesOffset(n)).bindMemory(to: SequencePiece.self, capacity: n)
      let stacks = UnsafeMutableRawPointer(sequencePieces)
      initiatorStack = stacks.assumingMemoryBound(to: Int32.self)
      pairingStack = (stacks + n * 4).assumingMemoryBound(to: Int32.self)
      // The first 4n bytes hold four byte arrays.
      types = (scratch + n * 1).bindMemory(to: BidiClass.self, capacity: n)
      runLevels = (scratch + n * 2).bindMemory(to: UInt8.self, capacity: n)
      runHasGaps = (scratch + n * 3).bindMemory(to: Bool.self, capacity: n)
    } else {
      let unused = scratch.bindMemory(to: Int32.self, capacity: 0)
      matchingPDI = unused
      runStarts = unused
      runEnds = unused
      initiatorStack = unused
      pairingStack = unused
      sequenceLevels = scratch.bindMemory(to: UInt8.self, capacity: 0)
      sequencePieces = scratch.bindMemory(to: SequencePiece.self, capacity: 0)
      types = sequenceTypes
      runLevels = scratch.bindMemory(to: UInt8.self, capacity: 0)
      runHasGaps = scratch.bindMemory(to: Bool.self, capacity: 0)
    }
  }

  /// Resolves every level (X1–I2) of a paragraph that needs the full
  /// algorithm. Returns true when every character resolved to the
  /// paragraph level and none was removed; nil when `stop`, asked before
  /// each isolating run sequence that W1–I2 resolve (the first after
  /// X1–X10; not before those X1–X8 resolved, which cost a scan each),
  /// answered true.
  func resolve(until stop: () -> Bool) -> Bool? {
    var uniform = true
    var runCount = 0
    var removes = false
    if hasExplicit {
      types.update(from: classes, count: count)
      (runCount, removes) = resolveExplicitLevels()
      uniform = !present.intersects(.removedByX9)
    }
    var stopped = false
    let skippedAtParagraphLevel = forEachIsolatingRunSequence(runCount: runCount) { sequence in
      if stopped || stop() {
        stopped = true
        return
      }
      // Four copies of the resolution, each compiled for its case.
      let atLevel: Bool
      switch (hasBrackets && holdsBrackets(sequence), sequence.isContiguous) {
      case (true, true): atLevel = resolveImplicitTypes(sequence, BracketedRun.self)
      case (true, false): atLevel = resolveImplicitTypes(sequence, BracketedGathered.self)
      case (false, true): atLevel = resolveImplicitTypes(sequence, PlainRun.self)
      case (false, false): atLevel = resolveImplicitTypes(sequence, PlainGathered.self)
      }
      if !atLevel || sequence.level != paragraphLevel { uniform = false }
    }
    if stopped { return nil }
    // The sequences X1–X8 resolved, which X10 did not hand on.
    if !skippedAtParagraphLevel { uniform = false }
    if removes { placeRemovedCharacters(runCount) }
    return uniform
  }

  /// Gives each character removed by X9 the level of the character before
  /// it (those at the start, of the first one after them; the paragraph
  /// level when there is none) below its removed mark, as a line places
  /// them (BD7 after X9: they join a neighbour's run), so that a line can
  /// read the paragraph's levels as they are. The removed characters are
  /// those between the `runCount` level runs and inside the runs with gaps.
  private func placeRemovedCharacters(_ runCount: Int) {
    let mark = ParagraphStorage.removedBit
    let first = runCount > 0 ? Int(runStarts[0]) : count
    let leading = runCount > 0 ? levels[first] : paragraphLevel
    for k in 0..<first { levels[k] = mark | leading }
    for r in 0..<runCount {
      let start = Int(runStarts[r])
      let last = Int(runEnds[r])
      if runHasGaps[r] {
        for k in (start &+ 1)..<last where levels[k] & mark != 0 { levels[k] = mark | levels[k &- 1] }
      }
      // Only removed characters lie between two runs.
      let next = r &+ 1 < runCount ? Int(runStarts[r &+ 1]) : count
      for k in (last &+ 1)..<next { levels[k] = mark | levels[last] }
    }
  }

  /// W1–I2 for one isolating run sequence of shape `Shape`. N0 needs
  /// W1–W7 done for the whole sequence first; without brackets, each
  /// character's weak type goes straight on to N1–I2 in the same pass. A
  /// long sequence with few brackets takes `resolveBracketsLocally`
  /// instead of the three passes W1–W7, N0, N1–I2.
  /// A gathered sequence's levels are resolved into `sequenceLevels`, then
  /// copied piece by piece. Returns true when every character stays at the
  /// sequence's level.
  @inline(never)
  private func resolveImplicitTypes<Shape: SequenceShape>(_ sequence: IsolatingRunSequence, _: Shape.Type) -> Bool {
    let sequence = Shape.contiguous ? sequence.contiguous : sequence
    if Shape.brackets && takesBracketsLocally(sequence) { return resolveBracketsLocally(sequence, Shape.self) }
    var neutral = NeutralResolver(sequence, levels: Shape.contiguous ? levels + sequence.offset : sequenceLevels)
    let atLevel: Bool
    if Shape.brackets {
      if Shape.contiguous {
        let first = firstBracket(atOrAfter: sequence.offset)
        var writer = ContiguousWeakTypeWriter(
          types: sequence.types, brackets: UnsafeBufferPointer(rebasing: bracketPositions[first...]),
          offset: sequence.offset)
        resolveWeakTypes(sequence, into: &writer)
      } else {
        var writer = GatheredWeakTypeWriter(
          sequence,
          brackets: UnsafeBufferPointer(rebasing: bracketPositions[firstBracket(atOrAfter: sequence.offset)...]))
        resolveWeakTypes(sequence, into: &writer)
      }
      resolvePairedBrackets(sequence)
      atLevel = NeutralResolver.resolve(neutral, sequence.types, sequence.count)
    } else {
      resolveWeakTypes(sequence, into: &neutral)
      atLevel = neutral.finish(sequence.count)
    }
    if !Shape.contiguous { scatterLevels(sequence) }
    return atLevel
  }

  /// Whether `resolveBracketsLocally` resolves `sequence`, which holds
  /// paired brackets: N1–I2 again around each bracket N0 changes costs
  /// more than a pass of its own over a short sequence or one dense with
  /// brackets (a line of code).
  @inline(__always)
  private func takesBracketsLocally(_ sequence: IsolatingRunSequence) -> Bool {
    let m = sequence.count
    guard pairedBracketsLocally && m >= localBracketsMinimum else { return false }
    guard sequence.isContiguous else { return bracketPositions.count &* charactersPerLocalBracket <= count }
    let brackets = firstBracket(atOrAfter: sequence.offset &+ m) &- firstBracket(atOrAfter: sequence.offset)
    return brackets &* charactersPerLocalBracket <= m
  }

  /// W1–I2 for a sequence with paired brackets in two passes: the first
  /// writes the weak types (for N0) and resolves the levels as if no
  /// bracket pair changed a type, then N0 pairs and resolves the brackets,
  /// and N1–I2 resolve again only the brackets N0 changed and the neutrals
  /// either side of them. Returns true when every character stays at the
  /// sequence's level.
  @inline(never)
  private func resolveBracketsLocally<Shape: SequenceShape>(_ sequence: IsolatingRunSequence, _: Shape.Type) -> Bool {
    let types = sequence.types
    let m = sequence.count
    var neutral = NeutralResolver(sequence, levels: Shape.contiguous ? levels + sequence.offset : sequenceLevels)
    if Shape.contiguous {
      let first = firstBracket(atOrAfter: sequence.offset)
      let writer = ContiguousWeakTypeWriter(
        types: types, brackets: UnsafeBufferPointer(rebasing: bracketPositions[first...]), offset: sequence.offset)
      var both = WeakTypesAndLevels(writer: writer, neutral: neutral)
      resolveWeakTypes(sequence, into: &both)
      neutral = both.neutral
    } else {
      let writer = GatheredWeakTypeWriter(
        sequence, brackets: UnsafeBufferPointer(rebasing: bracketPositions[firstBracket(atOrAfter: sequence.offset)...])
      )
      var both = WeakTypesAndLevels(writer: writer, neutral: neutral)
      resolveWeakTypes(sequence, into: &both)
      neutral = both.neutral
    }
    var atLevel = neutral.finish(m)
    // N0, then N1–I2 again where it changed a type.
    let changed = resolvePairedBrackets(sequence) { start, end in
      neutral.resolveAgain(types, m, start, end)
    }
    if changed { atLevel = neutral.allAtLevel(m) }
    if !Shape.contiguous { scatterLevels(sequence) }
    return atLevel
  }
}

/// Shortcuts of the resolver that tests turn off, to compare their results
/// with the plain path's.
/// The resolver's scratch memory above the stack limit: one block of up to
/// 64 KiB kept per thread between paragraphs, so that the lines of a document
/// cost no malloc and free each.
package enum ResolverScratch {
  package static let blocks = ThreadKeptBlock(limit: 1 << 16)
}

package struct ResolverShortcuts: OptionSet, Sendable {
  package let rawValue: UInt8
  package init(rawValue: UInt8) { self.rawValue = rawValue }

  /// W1–W7 hand a stretch of letters of one direction with the neutrals
  /// and marks between them on as one run (`resolveWeakTypes`).
  package static let stretches = ResolverShortcuts(rawValue: 1)
  /// A sequence with paired brackets is resolved in two passes, N1–I2
  /// resolved again after N0 only where it changed a type
  /// (`resolveImplicitTypes`).
  package static let pairedBracketsLocally = ResolverShortcuts(rawValue: 2)
  /// `.pairedBracketsLocally` for every sequence with paired brackets,
  /// however short or dense with them (for tests).
  package static let pairedBracketsLocallyAlways = ResolverShortcuts(rawValue: 4)
  /// The shortcuts `BidiParagraph` takes.
  package static let all: ResolverShortcuts = [.stretches, .pairedBracketsLocally]
}

extension ParagraphResolver {
  /// A sequence (or, gathered, its paragraph) with at least this many
  /// characters for each paired bracket resolves N1–I2 before N0 and
  /// again around the brackets N0 changed (`resolveImplicitTypes`).
  static let charactersPerLocalBracket = 16
  /// Shorter sequences resolve N1–I2 after N0 in a pass of their own.
  static let localBracketsMinimum = 128
}

/// The shape of an isolating run sequence as a type, so that
/// `resolveImplicitTypes` is compiled once for each: with or without
/// paired brackets in the paragraph, contiguous (`pieces` nil) or gathered.
protocol SequenceShape {
  static var brackets: Bool { get }
  static var contiguous: Bool { get }
}

enum BracketedRun: SequenceShape {
  static var brackets: Bool { true }
  static var contiguous: Bool { true }
}

enum BracketedGathered: SequenceShape {
  static var brackets: Bool { true }
  static var contiguous: Bool { false }
}

enum PlainRun: SequenceShape {
  static var brackets: Bool { false }
  static var contiguous: Bool { true }
}

enum PlainGathered: SequenceShape {
  static var brackets: Bool { false }
  static var contiguous: Bool { false }
}
