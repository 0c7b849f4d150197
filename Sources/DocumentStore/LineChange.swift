import UnicodeBidi

/// The lines an edit replaced: `oldLines` (numbered before the edit) became
/// `newLineCount` lines from `oldLines.lowerBound` on. Every other line kept
/// its bytes and its terminator.
package struct LineChange: Hashable, Sendable, CustomStringConvertible {
  package var oldLines: Range<Int>
  package var newLineCount: Int

  package init(oldLines: Range<Int>, newLineCount: Int) {
    self.oldLines = oldLines
    self.newLineCount = newLineCount
  }

  /// The new lines, numbered after the edit.
  package var newLines: Range<Int> { oldLines.lowerBound..<(oldLines.lowerBound + newLineCount) }

  package var description: String { "lines \(oldLines) → \(newLines)" }
}
