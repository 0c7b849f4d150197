import UnicodeBidi

/// Writes display lines of `UnicodeBidi` with their Arabic letters joined
/// (`ArabicJoining`): the joining is chosen in the line's logical order at
/// the paragraph's levels, then the line is written in visual order with
/// the chosen forms. A shaper keeps one buffer for the lines it writes.
public struct ArabicShaper: ~Copyable {
  private var buffer: UnsafeMutablePointer<UInt32>
  private var capacity: Int

  public init() {
    capacity = 256
    buffer = .allocate(capacity: capacity)
  }

  deinit { buffer.deallocate() }

  /// The line's characters as they show, in logical order (one per
  /// character, `BidiLine.omittedScalar` for none), or nil when shaping
  /// changes none of them. Valid until the next call.
  public mutating func shapedCharacters(of line: BidiLine) -> UnsafePointer<UInt32>? {
    line.withLogicalCharacters { scalars, levels in
      if scalars.count > capacity {
        buffer.deallocate()
        capacity = max(scalars.count, capacity * 2)
        buffer = .allocate(capacity: capacity)
      }
      return ArabicJoining.shape(scalars, levels: levels, into: buffer) ? UnsafePointer(buffer) : nil
    }
  }

  /// Writes the display line as `BidiLine.writeVisualUTF8` does, with its
  /// Arabic shaped; the same bound applies. Returns the bytes written.
  public mutating func writeVisualUTF8(
    _ line: BidiLine, mirrored: Bool = true, controls: ControlDisplay = .keep, to output: UnsafeMutablePointer<UInt8>
  ) -> Int {
    guard let shaped = shapedCharacters(of: line) else {
      return line.writeVisualUTF8(mirrored: mirrored, controls: controls, to: output)
    }
    return line.writeVisualUTF8(substituting: shaped, mirrored: mirrored, controls: controls, to: output)
  }

  /// The display line's visual text (`BidiLine.visualText`) with its
  /// Arabic shaped.
  public mutating func visualText(_ line: BidiLine, mirrored: Bool = true, controls: ControlDisplay = .keep) -> String {
    guard let shaped = shapedCharacters(of: line) else {
      return line.visualText(mirrored: mirrored, controls: controls)
    }
    return line.visualText(substituting: shaped, mirrored: mirrored, controls: controls)
  }
}
