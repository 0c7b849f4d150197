import StructuredText

/// Reads a SubRip file the way the lenient players do (ffmpeg's demuxer,
/// which VLC, mpv, Plex and Jellyfin use, and the `srt` library agree on
/// these rules), reporting what stricter readers reject:
/// - A *timing line* (`CueTiming.subRip`) starts a cue. A line holding
///   only a number is the cue's number when the next non-empty line is a
///   timing line; otherwise it is text.
/// - A cue's text is every non-empty line up to the next cue. An empty
///   line inside it does not end it when the text after it starts no cue:
///   ffmpeg shows that text in the same cue and the `srt` library keeps it
///   (a warning: players that end a cue at an empty line drop it).
/// - A cue that starts right after text, without an empty line, is read
///   (a warning).
/// - A line that starts with a digit and holds `-->` or starts with a whole
///   time (`00:00:03,000 -> …`), but does not parse, is a broken timing line
///   (an error): its block (the number before it, the lines after it up to
///   an empty line) is no cue's text. Text like `10:30 صباحاً` or `a --> b`
///   stays text.
/// - Text before the first cue, or after a broken block's empty line, is
///   no cue's text (a warning: players never show it).
/// - Cue numbers: a missing number or one out of sequence is information
///   only (players ignore numbers).
enum SubRipReader {
  static func read(
    _ lines: some DocumentLines, from checkpoint: SubtitleCheckpoint?,
    stoppingWhere shouldStop: ((SubtitleCheckpoint) -> Bool)? = nil
  ) -> SubtitleDocument {
    var state = SubtitleReaderState(lines, format: .subRip, cueBase: checkpoint?.cuesBefore ?? 0)
    state.shouldStop = shouldStop
    var reader = Cursor(previousNumber: checkpoint?.previousNumber, inCue: checkpoint?.openCue ?? false)
    var line = checkpoint?.line ?? 0
    while line < state.lineCount && !state.stopped {
      line = reader.step(&state, line)
    }
    return state.finish()
  }

  /// Where the reading is between two lines.
  private struct Cursor {
    /// The number of the last cue read, if it had one.
    var previousNumber: Int?
    /// Whether text lines go to the last cue (else they are outside any cue).
    var inCue = false
    /// Whether the line before is empty (or the reading starts here).
    var afterEmpty = true

    /// Reads the construct at `line`; returns the line after it.
    mutating func step(_ state: inout SubtitleReaderState<some DocumentLines>, _ line: Int) -> Int {
      switch classify(state, line) {
      case .empty:
        afterEmpty = true
        return line + 1
      case .number(let number):
        if let next = nextNonEmpty(state, after: line) {
          switch classify(state, next) {
          case .timing(let timing):
            startCue(&state, header: line, number: number, timing: timing, timingLine: next)
            return next + 1
          case .brokenTiming(let failure):
            return skipBroken(&state, failure, at: next)
          default:
            break
          }
        }
      case .timing(let timing):
        startCue(&state, header: nil, number: nil, timing: timing, timingLine: line)
        return line + 1
      case .brokenTiming(let failure):
        return skipBroken(&state, failure, at: line)
      case .text:
        break
      }
      if inCue {
        if afterEmpty {
          state.report(
            .warning, line,
            "an empty line inside cue \(state.nextCueIndex - 1): VLC, mpv and the srt library show this text in the "
              + "cue, players that end a cue at an empty line drop it")
        }
        state.addTextLine(line)
      } else if afterEmpty {
        state.report(.warning, line, "text outside any cue (no timing line before it): players never show it")
      }
      afterEmpty = false
      return line + 1
    }

    /// Starts a cue whose first line is `header ?? timingLine`.
    private mutating func startCue(
      _ state: inout SubtitleReaderState<some DocumentLines>, header: Int?, number: Int?, timing: CueTiming,
      timingLine: Int
    ) {
      state.checkFinishedCue()
      let first = header ?? timingLine
      let index = state.nextCueIndex
      if afterEmpty, first > 0, state.isEmpty(first - 1) {
        state.addCheckpoint(
          SubtitleCheckpoint(
            line: first, cuesBefore: index - 1, previousNumber: previousNumber, seenCue: index > 1, openCue: inCue))
      }
      if !afterEmpty, inCue, state.document.cues.last?.textLines.isEmpty == false {
        state.report(
          .warning, first,
          "no empty line before cue \(index): lenient players read it, strict ones take it as the text of cue \(index - 1)"
        )
      }
      if let number {
        let expected = previousNumber.map { $0 + 1 } ?? index
        if number != expected {
          state.report(
            .information, first, "cue number \(number) where \(expected) was expected (players ignore numbers)")
        }
      } else {
        state.report(.information, first, "cue \(index) has no number (players ignore numbers)")
      }
      previousNumber = number
      state.document.cues.append(
        SubtitleCue(
          index: index, headerLine: header, number: number, identifier: nil, timingLine: timingLine,
          start: timing.start, end: timing.end, settings: timing.settings, textLines: []))
      inCue = true
      afterEmpty = false
    }

    /// Reports a broken timing line and skips its block; returns the empty line that ends it.
    private mutating func skipBroken(
      _ state: inout SubtitleReaderState<some DocumentLines>, _ failure: CueTiming.Failure, at line: Int
    ) -> Int {
      state.checkFinishedCue()
      state.report(.error, line, column: failure.column, failure.message + "; players drop this cue")
      var next = line + 1
      while next < state.lineCount, !state.isEmpty(next) { next += 1 }
      inCue = false
      afterEmpty = false
      return next
    }
  }

  enum LineKind {
    case empty
    case number(Int)
    case timing(CueTiming)
    case brokenTiming(CueTiming.Failure)
    case text
  }

  static func classify(_ state: SubtitleReaderState<some DocumentLines>, _ line: Int) -> LineKind {
    state.withLine(line) { bytes, base in
      if bytes.isEmpty { return .empty }
      var index = 0
      while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
      let digitsStart = index
      var number = 0
      while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
        number = min(number * 10 + Int(bytes[index] - 0x30), Int(Int32.max))
        index += 1
      }
      let digits = index - digitsStart
      // A line that starts with a digit and holds `-->` or starts with a
      // whole time (`00:00:03,000 -> …`) is meant as a timing line; text such
      // as `10:30 صباحاً` or `a --> b` stays text.
      if digits > 0, index < bytes.count, bytes[index] == UInt8(ascii: ":") || CueTiming.hasArrow(bytes) {
        switch CueTiming.subRip(bytes) {
        case .success(let timing): return .timing(timing)
        case .failure(var failure):
          if CueTiming.hasArrow(bytes) || CueTiming.startsWithSubRipTime(bytes) {
            failure.column += base
            return .brokenTiming(failure)
          }
          return .text
        }
      }
      while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
      return digits > 0 && index == bytes.count ? .number(number) : .text
    }
  }

  /// The first non-empty line after `line`, if any.
  private static func nextNonEmpty(_ state: SubtitleReaderState<some DocumentLines>, after line: Int) -> Int? {
    var next = line + 1
    while next < state.lineCount, state.isEmpty(next) { next += 1 }
    return next < state.lineCount ? next : nil
  }
}
