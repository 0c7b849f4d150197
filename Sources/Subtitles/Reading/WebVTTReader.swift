import StructuredText

/// Reads a WebVTT file as the WebVTT parser of the specification (and so
/// the browsers) does: the `WEBVTT` line, the header block, then blocks
/// separated by empty lines ("collect a WebVTT block"). A block whose first
/// or second line holds `-->` is a cue (the first line, when it is not the
/// timing line, is its identifier); a line holding `-->` anywhere else ends
/// the block and starts the next one; `STYLE` and `REGION` blocks count
/// only before the first cue; `NOTE` blocks and anything else are skipped.
/// Only an empty line separates blocks (a line of spaces is cue text).
///
/// Departures, each reported: a file without the `WEBVTT` line is read on
/// (browsers reject it whole: an error); a cue whose timing line does not
/// parse is dropped with its text (an error); a `-->` line inside a cue's
/// text, a block that is neither cue nor `NOTE`/`STYLE`/`REGION` (warnings).
enum WebVTTReader {
  static func read(
    _ lines: some DocumentLines, from checkpoint: SubtitleCheckpoint?,
    stoppingWhere shouldStop: ((SubtitleCheckpoint) -> Bool)? = nil
  ) -> SubtitleDocument {
    var state = SubtitleReaderState(lines, format: .webVTT, cueBase: checkpoint?.cuesBefore ?? 0)
    state.shouldStop = shouldStop
    var line = 0
    var seenCue = checkpoint?.seenCue ?? false
    if let checkpoint {
      line = checkpoint.line
    } else {
      line = readHeader(&state)
    }
    let count = state.lineCount
    var afterEmpty = checkpoint != nil || (line > 0 && state.isEmpty(line - 1))
    while line < count && !state.stopped {
      if state.isEmpty(line) {
        afterEmpty = true
        line += 1
        continue
      }
      if afterEmpty, line > 0, state.isEmpty(line - 1) {
        state.addCheckpoint(
          SubtitleCheckpoint(line: line, cuesBefore: state.nextCueIndex - 1, previousNumber: nil, seenCue: seenCue))
        if state.stopped { break }
      }
      line = readBlock(&state, from: line, seenCue: &seenCue)
      afterEmpty = false
    }
    return state.finish()
  }

  /// Reads the `WEBVTT` line and the header block after it (its
  /// `Language:` line); returns the line after them.
  private static func readHeader(_ state: inout SubtitleReaderState<some DocumentLines>) -> Int {
    let signature = state.withLine(0) { bytes, _ -> Bool? in
      guard bytes.starts(with: "WEBVTT".utf8) else { return nil }
      return bytes.count == 6 || bytes[6] == 0x20 || bytes[6] == 0x09
    }
    switch signature {
    case nil:
      state.report(.error, 0, "not a WebVTT file: the first line must be 'WEBVTT'; players show none of its cues")
      return 0
    case false:
      state.report(
        .error, 0, "'WEBVTT' must be followed by a space, a tab or the end of the line; players reject the file")
    default:
      break
    }
    var line = 1
    while line < state.lineCount, !state.isEmpty(line) {
      let (isArrow, language) = state.withLine(line) { bytes, _ in (CueTiming.hasArrow(bytes), headerLanguage(bytes)) }
      if isArrow {
        state.report(.warning, line, "no empty line between the header and the first cue")
        return line
      }
      if let language, state.document.headerLanguage == nil { state.document.headerLanguage = language }
      line += 1
    }
    return line
  }

  /// The value of a `Language:` header line (any case), trimmed.
  private static func headerLanguage(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    let key = "language:"
    guard bytes.count > key.utf8.count else { return nil }
    for (offset, byte) in key.utf8.enumerated() where bytes[offset] | 0x20 != byte | 0x20 { return nil }
    let value = String(decoding: UnsafeBufferPointer(rebasing: bytes[key.utf8.count...]), as: UTF8.self)
    let trimmed = value.trimmingSpaces
    return trimmed.isEmpty ? nil : trimmed
  }

  /// Reads the block starting at `start` ("collect a WebVTT block" with
  /// *in header* unset); returns the line after it.
  private static func readBlock(
    _ state: inout SubtitleReaderState<some DocumentLines>, from start: Int, seenCue: inout Bool
  )
    -> Int
  {
    var line = start
    var lineCount = 0
    var seenArrow = false
    var isCue = false
    var firstLine = ""
    while line < state.lineCount {
      let bytes = state.withLine(line) { bytes, _ in (arrow: CueTiming.hasArrow(bytes), empty: bytes.isEmpty) }
      lineCount += 1
      if bytes.arrow {
        guard lineCount == 1 || (lineCount == 2 && !seenArrow) else {
          state.report(
            .warning, line,
            isCue
              ? "no empty line before this cue: the '-->' line ends cue \(state.nextCueIndex - 1) here"
              : "a '-->' line ends the block above it: an empty line is missing")
          return line
        }
        seenArrow = true
        isCue = startCue(&state, identifierLine: lineCount == 2 ? start : nil, timingLine: line)
        if isCue { seenCue = true }
      } else if bytes.empty {
        break
      } else if isCue {
        state.addTextLine(line)
      } else if lineCount == 1 {
        firstLine = state.withLine(line) { bytes, _ in String(decoding: bytes.prefix(7), as: UTF8.self) }
      }
      line += 1
    }
    if !seenArrow {
      checkOtherBlock(&state, start, firstLine: firstLine, lineCount: lineCount, seenCue: seenCue)
    }
    return line
  }

  /// Starts a cue at its timing line; false when that line does not parse.
  private static func startCue(
    _ state: inout SubtitleReaderState<some DocumentLines>, identifierLine: Int?, timingLine: Int
  )
    -> Bool
  {
    state.checkFinishedCue()
    let timing = state.withLine(timingLine) { bytes, base in
      CueTiming.webVTT(bytes).mapError { CueTiming.Failure(column: $0.column + base, message: $0.message) }
    }
    switch timing {
    case .failure(let failure):
      state.report(.error, timingLine, column: failure.column, failure.message + "; players drop this cue")
      return false
    case .success(let timing):
      let identifier = identifierLine.map { state.withLine($0) { bytes, _ in String(decoding: bytes, as: UTF8.self) } }
      state.document.cues.append(
        SubtitleCue(
          index: state.nextCueIndex, headerLine: identifierLine, number: nil, identifier: identifier,
          timingLine: timingLine, start: timing.start, end: timing.end, settings: timing.settings, textLines: []))
      return true
    }
  }

  /// A block without a timing line: a comment, a style sheet, a region, or nothing a player reads.
  private static func checkOtherBlock(
    _ state: inout SubtitleReaderState<some DocumentLines>, _ line: Int, firstLine: String, lineCount: Int,
    seenCue: Bool
  ) {
    func starts(_ word: String) -> Bool {
      firstLine == word || firstLine.hasPrefix(word + " ") || firstLine.hasPrefix(word + "\t")
    }
    if starts("NOTE") { return }
    if firstLine.hasPrefix("STYLE") || firstLine.hasPrefix("REGION") {
      if seenCue {
        state.report(.warning, line, "a STYLE or REGION block after the first cue: players ignore it")
      }
      return
    }
    state.report(.warning, line, "not a cue (no '-->' timing line in its first two lines): players skip this block")
  }
}

extension String {
  /// The string without leading and trailing spaces and tabs.
  var trimmingSpaces: String {
    var scalars = Substring(self)
    while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
    while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
    return String(scalars)
  }
}
