import Markdown
import UnicodeBidi

/// What must hold of any read and rendering, whatever the input: the unit
/// tests and the libFuzzer target (Fuzz/Targets/markdown.swift, which
/// compiles this file) check the same things.
enum MarkdownChecks {
  /// All the checks on `bytes`.
  static func problems(_ bytes: [UInt8], options: MarkdownReader.Options = .init()) -> [String] {
    let source = MarkdownSource(bytes)
    let read = MarkdownReader(options: options).read(source)
    return structureProblems(source, read) + renderingProblems(source, read) + restartProblems(source, read, options)
  }

  /// Blocks in document order, their pieces inside their lines and in
  /// order, nothing past the source.
  static func structureProblems(_ source: MarkdownSource, _ read: MarkdownBlocks) -> [String] {
    var problems: [String] = []
    var last = SourcePosition(line: -1, column: 0)
    var lastLine = -1
    for block in read.blocks {
      if block.lines.lowerBound < lastLine || block.lines.upperBound >= source.lineCount {
        problems.append("\(block.kind) at lines \(block.lines) out of order or past the end")
      }
      lastLine = block.lines.lowerBound
      for piece in block.pieces {
        let start = SourcePosition(line: piece.line, column: piece.columns.lowerBound)
        if start < last || !block.lines.contains(piece.line)
          || piece.columns.upperBound > source.length(ofLine: piece.line)
        {
          problems.append("piece \(piece) of \(block.kind) out of order or outside its line")
        }
        last = SourcePosition(line: piece.line, column: piece.columns.upperBound)
      }
    }
    return problems
  }

  /// The rendered text's map never decreases and stays in the block's
  /// lines; each rendered byte is its source byte, or comes from an escape,
  /// an entity or a NUL, or is a break, a code span's line end or tab;
  /// atoms lie in the text, markup in the block, and no rendered byte maps
  /// strictly inside markup.
  static func renderingProblems(_ source: MarkdownSource, _ read: MarkdownBlocks) -> [String] {
    let renderer = MarkdownInlineRenderer(source: source, definitions: read.definitions)
    var problems: [String] = []
    for block in read.blocks where block.kind.hasInlineContent {
      let inline = renderer.render(block)
      guard inline.sourceMap.count == inline.text.count else { return ["map and text of different lengths"] }
      for k in inline.markup.indices.dropFirst() where inline.markup[k].start < inline.markup[k - 1].end {
        problems.append("markup \(inline.markup[k]) overlaps or precedes \(inline.markup[k - 1])")
      }
      var markupIndex = 0
      for (index, position) in inline.sourceMap.enumerated() {
        if index > 0 && position < inline.sourceMap[index - 1] { problems.append("map decreases at \(index)") }
        guard block.lines.contains(position.line), position.column <= source.length(ofLine: position.line) else {
          problems.append("map leaves the block at \(index)")
          continue
        }
        let rendered = inline.text[index]
        guard position.column < source.length(ofLine: position.line) else {
          if rendered != 0x20 && !(0x80...0xE2).contains(rendered) { problems.append("line end renders \(rendered)") }
          continue
        }
        let original = source.bytes[source.offset(of: position)]
        let decoded = original == UInt8(ascii: "\\") || original == UInt8(ascii: "&") || original == 0
        let breakOrSpace = rendered == 0x20 || (0x80...0xA8).contains(rendered) || rendered == 0xE2
        if rendered != original && !decoded && !breakOrSpace && !(original == 0x09 || original == 0x20) {
          problems.append("byte \(index) renders \(rendered) from \(original)")
        }
        // Markup is in order and the map never decreases: one sweep.
        while markupIndex < inline.markup.count && inline.markup[markupIndex].end <= position { markupIndex += 1 }
        if markupIndex < inline.markup.count, inline.markup[markupIndex].start < position {
          problems.append("byte \(index) maps inside markup \(inline.markup[markupIndex])")
        }
      }
      for atom in inline.atoms
      where atom.rendered.upperBound > inline.text.count || atom.source.start > atom.source.end
        || !block.lines.contains(atom.source.start.line)
      {
        problems.append("atom \(atom) outside")
      }
      for range in inline.markup + inline.destinations
      where range.start > range.end || !block.lines.contains(range.start.line) || !block.lines.contains(range.end.line)
      {
        problems.append("markup or destination \(range) outside the block")
      }
    }
    return problems
  }

  /// Reading from each checkpoint gives the full read's blocks and
  /// checkpoints from there on; a read stopped at the next checkpoint
  /// gives exactly the blocks in between.
  static func restartProblems(_ source: MarkdownSource, _ full: MarkdownBlocks, _ options: MarkdownReader.Options)
    -> [String]
  {
    let reader = MarkdownReader(options: options)
    var problems: [String] = []
    if full.checkpoints.first != 0 && source.lineCount > 0 { problems.append("line 0 is not a checkpoint") }
    for (k, checkpoint) in full.checkpoints.enumerated() {
      let restarted = reader.read(source, from: checkpoint)
      if restarted.blocks != full.blocks.filter({ $0.lines.lowerBound >= checkpoint }) {
        problems.append("from line \(checkpoint): other blocks")
      }
      if restarted.checkpoints != Array(full.checkpoints[k...]) {
        problems.append("from line \(checkpoint): other checkpoints")
      }
      if let next = full.checkpoints.dropFirst(k + 1).first {
        let window = reader.read(source, from: checkpoint, stoppingAtCheckpointFrom: next)
        if window.endLine != next {
          problems.append("from line \(checkpoint): stopped at \(window.endLine), not \(next)")
        }
        if window.blocks != full.blocks.filter({ $0.lines.lowerBound >= checkpoint && $0.lines.lowerBound < next }) {
          problems.append("from line \(checkpoint) to \(next): other blocks")
        }
      }
    }
    return problems
  }
}
