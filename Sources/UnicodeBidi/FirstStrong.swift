// UAX #9, 3.3.1 The Paragraph Level: rules P2 and P3.

/// The outcome of rules P2–P3 for a paragraph: the direction of its first
/// strong character, skipping the contents of isolates, and where it is.
public struct FirstStrong: Hashable, Sendable {
  /// `.leftToRight` for L, `.rightToLeft` for R or AL, nil when the
  /// paragraph has no strong character outside isolates.
  public var direction: BidiDirection?
  /// The offset of the deciding character in the units of the input
  /// (scalar index, or byte offset for UTF-8); nil with no direction.
  public var offset: Int?

  @inlinable
  public init(direction: BidiDirection?, offset: Int?) {
    self.direction = direction
    self.offset = offset
  }
}

/// Feeds classes one by one to rule P2: skips characters between an
/// isolate initiator and its matching PDI (or the end of the paragraph),
/// and reports the first L, R or AL outside them.
struct FirstStrongScanner {
  var isolateDepth = 0

  /// The direction decided by `c`, or nil to keep looking.
  @inline(__always)
  mutating func feed(_ c: BidiClass) -> BidiDirection? {
    switch c {
    case .L where isolateDepth == 0: return .leftToRight
    case .R where isolateDepth == 0, .AL where isolateDepth == 0: return .rightToLeft
    case .LRI, .RLI, .FSI: isolateDepth += 1
    // BD9: a PDI matches the nearest unmatched isolate initiator; one with
    // none is ignored.
    case .PDI where isolateDepth > 0: isolateDepth -= 1
    default: break
    }
    return nil
  }
}

extension BidiParagraph {
  /// P2–P3: the first strong character of a paragraph of scalar values,
  /// skipping isolate contents. The paragraph ends at the first character of
  /// class B, if any.
  public static func firstStrong(scalars: UnsafeBufferPointer<UInt32>) -> FirstStrong {
    var scanner = FirstStrongScanner()
    for i in 0..<scalars.count {
      let c = BidiClass(scalars[i])
      if c == .B { break }
      if let direction = scanner.feed(c) { return FirstStrong(direction: direction, offset: i) }
    }
    return FirstStrong(direction: nil, offset: nil)
  }

  /// P2–P3 for a paragraph of UTF-8; the offset is in bytes.
  public static func firstStrong(utf8: UnsafeBufferPointer<UInt8>) -> FirstStrong {
    var scanner = FirstStrongScanner()
    var start = 0
    while start < utf8.count {
      let decoded = UTF8Decoder.decode(utf8, at: start)
      let c = BidiClass(decoded.value)
      if c == .B { break }
      if let direction = scanner.feed(c) { return FirstStrong(direction: direction, offset: start) }
      start += decoded.length
    }
    return FirstStrong(direction: nil, offset: nil)
  }

  /// P2–P3 over an array of scalar values.
  public static func firstStrong(scalars: [UInt32]) -> FirstStrong {
    scalars.withUnsafeBufferPointer { firstStrong(scalars: $0) }
  }

  /// P2–P3 over an array of bytes of UTF-8.
  public static func firstStrong(utf8: [UInt8]) -> FirstStrong {
    utf8.withUnsafeBufferPointer { firstStrong(utf8: $0) }
  }
}
