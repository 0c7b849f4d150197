import BidiMarks
import UnicodeBidi

/// Plans `bidi/insertMarks` in document mode for one entry: every mode
/// applied to each paragraph of the entry as the bidi algorithm sees it
/// (`ParagraphProjection`: markup left out, each placeholder one neutral
/// character), planned by BidiMarks' `MarkPlanner` where its modes fit, and
/// mapped back to the document: edits only inside the entry's text, never
/// inside an atom or markup or between the parts of an escape, and every
/// inserted control written in the document's `MarkSpelling`. Every mode is
/// idempotent: re-reading the edited document and planning again gives no edits.
package struct EntryPlanner: Sendable {
  package let value: TextEntry
  package let spelling: MarkSpelling

  package init(_ entry: TextEntry, spelling: MarkSpelling) {
    self.value = entry
    self.spelling = spelling
  }

  private func projection(_ paragraph: Int) -> ParagraphProjection {
    ParagraphProjection(value, paragraph: paragraph, filled: false)
  }

  private func paragraphs(_ selected: Range<Int>?) -> Range<Int> {
    let all = 0..<value.paragraphs.count
    return selected.map { $0.clamped(to: all) } ?? all
  }

  /// Mode `direction`: LRM or RLM at the start of each non-empty paragraph
  /// (of `selected`, nil for all) that does not resolve to `direction`
  /// under firstStrong both as written and filled (what the application
  /// displays once its placeholders are replaced: the seed case is RTL as
  /// written only); a mark of the other direction already at its start is
  /// replaced, so switching directions does not pile marks up. A new mark
  /// goes at the start of the paragraph's text, before markup that opens it,
  /// and nowhere where that start is sealed (`TextEntry.sealed`).
  package func directionEdits(_ direction: BidiDirection, paragraphs selected: Range<Int>? = nil) -> [SourceEdit] {
    var edits: [SourceEdit] = []
    for paragraph in paragraphs(selected) {
      edits += directionEdits(direction, analysis: ParagraphAnalysis(value, paragraph: paragraph))
    }
    return edits
  }

  /// `directionEdits` for one paragraph of this entry, already analysed
  /// (a rule that has its analysis does not make another).
  package func directionEdits(_ direction: BidiDirection, analysis: ParagraphAnalysis) -> [SourceEdit] {
    let paragraph = analysis.paragraph
    let projection = analysis.written
    guard let first = projection.scalars.first else { return [] }
    if analysis.direction() == direction && analysis.direction(filled: true) == direction { return [] }
    let mark = String(Character(direction == .leftToRight ? "\u{200E}" : "\u{200F}"))
    if first == 0x200E || first == 0x200F || first == 0x061C {
      return map([MarkEdit(start: 0, end: projection.offsets[1], newText: mark)], projection)
    }
    // At the very start of the paragraph's text, before any markup
    // (not inside an `<xliff:g>` or `<b>` that opens it).
    let start = value.paragraphs[paragraph].lowerBound
    // Not before a text that no mark may precede (a bare `www.` link).
    if value.sealed.contains(where: { $0.lowerBound <= start && start <= $0.upperBound }) { return [] }
    return [
      SourceEdit(
        range: SourceRange(at: value.insertionPoint(atDecoded: start)), newText: spelling(at: start).spell(mark))
    ]
  }

  /// Mode `placeholders`: each atom (a placeholder, an ICU plural/select
  /// argument as a whole, a code span) not already isolated wrapped in
  /// FSI … PDI (`.isolate`), or followed by the mark of its paragraph's
  /// direction (`.marks`; `directions` per paragraph, the last repeated,
  /// LTR when empty).
  package func placeholderEdits(
    style: PlaceholderStyle, directions: [BidiDirection] = [], paragraphs selected: Range<Int>? = nil
  ) -> [SourceEdit] {
    var edits: [SourceEdit] = []
    for paragraph in paragraphs(selected) {
      let projection = projection(paragraph)
      let scalars = projection.scalars
      let mark: UInt32 =
        (paragraph < directions.count ? directions[paragraph] : directions.last ?? .leftToRight) == .leftToRight
        ? 0x200E : 0x200F
      var planned: [MarkEdit] = []
      for atom in projection.atomScalars where !atom.isEmpty {
        let before = atom.lowerBound > 0 ? scalars[atom.lowerBound - 1] : 0
        let after = atom.upperBound < scalars.count ? scalars[atom.upperBound] : 0
        if (before == 0x2066 || before == 0x2067 || before == 0x2068) && after == 0x2069 { continue }
        let start = projection.offsets[atom.lowerBound]
        let end = projection.offsets[atom.upperBound]
        switch style {
        case .isolate:
          planned.append(MarkEdit(start: start, end: start, newText: "\u{2068}"))
          planned.append(MarkEdit(start: end, end: end, newText: "\u{2069}"))
        case .marks:
          if after == mark { continue }
          if after == 0x200E || after == 0x200F || after == 0x061C {
            planned.append(
              MarkEdit(
                start: end, end: projection.offsets[atom.upperBound + 1],
                newText: String(Character(Unicode.Scalar(mark)!))))
          } else {
            planned.append(MarkEdit(start: end, end: end, newText: String(Character(Unicode.Scalar(mark)!))))
          }
        }
      }
      edits += map(planned, projection)
    }
    return edits
  }

  /// Mode `runs`: the opposite-direction runs of each paragraph isolated,
  /// by BidiMarks' rules; `directions` per paragraph as for placeholders.
  package func runEdits(directions: [BidiDirection], paragraphs selected: Range<Int>? = nil) -> [SourceEdit] {
    var edits: [SourceEdit] = []
    for paragraph in paragraphs(selected) {
      let projection = projection(paragraph)
      let direction = paragraph < directions.count ? directions[paragraph] : directions.last ?? .leftToRight
      let planner = MarkPlanner(utf8: projection.utf8)
      edits += map(
        planner.runEdits(directions: [direction]) { run in
          !touchesSealed(projection, projection.index(ofUTF8: run.lowerBound))
            && !touchesSealed(projection, projection.index(ofUTF8: run.upperBound))
        }, projection)
    }
    return edits
  }

  /// Whether a control put before scalar `index` of `projection` would be
  /// inside or at an edge of one of the entry's sealed ranges.
  private func touchesSealed(_ projection: ParagraphProjection, _ index: Int) -> Bool {
    guard !value.sealed.isEmpty else { return false }
    let before = index > 0 ? projection.ranges[index - 1].upperBound : projection.content.lowerBound
    let after = index < projection.ranges.count ? projection.ranges[index].lowerBound : projection.content.upperBound
    return value.sealed.contains { $0.lowerBound <= after && before <= $0.upperBound }
  }

  /// Mode `strip`: bidi controls of the value's text removed (`.unpaired`:
  /// those GCC's rules find unpaired within their paragraph); controls
  /// written as escapes lose their whole escape.
  package func stripEdits(_ scope: StripScope, paragraphs selected: Range<Int>? = nil) -> [SourceEdit] {
    var edits: [SourceEdit] = []
    for paragraph in paragraphs(selected) {
      let projection = projection(paragraph)
      edits += map(MarkPlanner(utf8: projection.utf8).stripEdits(scope), projection)
    }
    return edits
  }

  /// Mode `isolate` over a document range inside one paragraph of the entry.
  /// Throws when the range is not inside the entry's text, splits an atom,
  /// markup or escape, has an edge at a sealed range (a bare autolink), or
  /// splits a pair of controls.
  package func isolateEdits(_ range: SourceRange, kind: DirectionChoice = .auto) throws(EntryEditError) -> [SourceEdit]
  {
    guard let start = value.decodedOffset(atSource: range.start), let end = value.decodedOffset(atSource: range.end),
      start <= end
    else { throw .outsideValueText(range) }
    guard let paragraph = value.paragraphs.firstIndex(where: { $0.lowerBound <= start && end <= $0.upperBound })
    else { throw .spansParagraphs(range) }
    let projection = projection(paragraph)
    let ranges = projection.ranges
    func boundary(_ offset: Int) -> Int? {
      if let index = ranges.firstIndex(where: { $0.lowerBound == offset }) { return index }
      if ranges.isEmpty || ranges[ranges.count - 1].upperBound <= offset { return ranges.count }
      return nil
    }
    guard let first = boundary(start), let last = boundary(end), first <= last,
      projection.atom(strictlyAround: first) == nil, projection.atom(strictlyAround: last) == nil,
      !touchesSealed(projection, first), !touchesSealed(projection, last)
    else {
      throw .splitsPlaceholderOrMarkup(range)
    }
    let planner = MarkPlanner(utf8: projection.utf8)
    do {
      return map(try planner.isolateEdits(projection.offsets[first]..<projection.offsets[last], kind: kind), projection)
    } catch {
      throw .marks(error)
    }
  }

  /// How a mark going before the decoded character at `offset` is written:
  /// the document's spelling, except that inside an XML CDATA section (which
  /// reads no entity) it is the character itself.
  private func spelling(at offset: Int) -> MarkSpelling {
    switch spelling {
    case .xmlHex, .xmlDecimal:
      return value.literalOnly.contains { $0.contains(offset) } ? .literal : spelling
    default:
      return spelling
    }
  }

  /// Edits planned on a projection's UTF-8, in the document. Insertions
  /// landing at the same document position (the PDI after a placeholder and
  /// the FSI before the next one) are joined into one edit, in plan order:
  /// clients that apply edits from the end of the document backwards would
  /// otherwise write them in reverse. An insertion inside an atom that
  /// shows its text goes to its edge (its end for a closer, else its
  /// start); a replacement inside one is dropped: the inside of an atom is
  /// never edited.
  package func map(_ edits: [MarkEdit], _ projection: ParagraphProjection) -> [SourceEdit] {
    var result: [SourceEdit] = []
    func append(_ edit: SourceEdit) {
      if let last = result.last, last.range.start == last.range.end, last.range.end == edit.range.start {
        result[result.count - 1] = SourceEdit(range: edit.range, newText: last.newText + edit.newText)
      } else {
        result.append(edit)
      }
    }
    for edit in edits {
      var first = projection.index(ofUTF8: edit.start)
      let last = projection.index(ofUTF8: edit.end)
      if first == last {
        let leaningLeft = edit.newText.unicodeScalars.first == "\u{2069}"
        if let atom = projection.atom(strictlyAround: first) { first = leaningLeft ? atom.upperBound : atom.lowerBound }
        let decoded = projection.decodedInsertion(at: first, leaningLeft: leaningLeft)
        append(
          SourceEdit(
            range: SourceRange(at: value.insertionPoint(atDecoded: decoded)),
            newText: spelling(at: decoded).spell(edit.newText)))
        continue
      }
      if projection.atom(strictlyAround: first) != nil || projection.atom(strictlyAround: last) != nil { continue }
      let decoded = projection.decodedRange(first..<last)
      let text = spelling(at: decoded.lowerBound).spell(edit.newText)
      let parts = value.sourceRanges(ofDecoded: decoded)
      for (index, part) in parts.enumerated() {
        append(SourceEdit(range: part, newText: index == 0 ? text : ""))
      }
    }
    return result
  }
}

/// Why an edit cannot be planned in an entry.
package enum EntryEditError: Error, Hashable, Sendable, CustomStringConvertible {
  case outsideValueText(SourceRange)
  case spansParagraphs(SourceRange)
  case splitsPlaceholderOrMarkup(SourceRange)
  case marks(MarkError)

  package var description: String {
    switch self {
    case .outsideValueText(let range): "range \(range) is not inside the text of an entry (or splits an escape)"
    case .spansParagraphs(let range): "range \(range) spans several paragraphs of the entry"
    case .splitsPlaceholderOrMarkup(let range):
      "range \(range) splits an atom (a placeholder) or markup, or has an edge at a bare link"
    case .marks(let error): error.description
    }
  }
}
