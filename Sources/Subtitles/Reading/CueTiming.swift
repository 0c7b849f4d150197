/// A cue's timing line, read: start and end in milliseconds, and what
/// follows the end time.
struct CueTiming: Hashable, Sendable {
  var start: Int
  var end: Int
  /// WebVTT cue settings (`align:start line:0`), or SubRip's trailing text
  /// (`X1:100 X2:600 Y1:50 Y2:80`), trimmed.
  var settings: String

  /// Why a line that should be a timing line is not one.
  struct Failure: Error, Hashable {
    var column: Int
    var message: String
  }

  /// A SubRip timing line as ffmpeg's demuxer reads it:
  /// `H:M:S,mmm --> H:M:S,mmm` with any number of digits in each field, `,`
  /// or `.` before the milliseconds, optional white space around the arrow,
  /// anything after the end time.
  static func subRip(_ line: UnsafeBufferPointer<UInt8>) -> Result<CueTiming, Failure> {
    var scanner = Scanner(bytes: line)
    scanner.skipWhitespace()
    guard let start = scanner.subRipTime() else { return .failure(scanner.failure("a start time H:MM:SS,mmm")) }
    scanner.skipWhitespace()
    guard scanner.take("-->") else { return .failure(scanner.failure("'-->' after the start time")) }
    scanner.skipWhitespace()
    guard let end = scanner.subRipTime() else { return .failure(scanner.failure("an end time H:MM:SS,mmm")) }
    return .success(CueTiming(start: start, end: end, settings: scanner.rest()))
  }

  /// A WebVTT timing line as its parser reads it ("collect WebVTT cue
  /// timings and settings"): `[HH:]MM:SS.mmm --> [HH:]MM:SS.mmm [settings]`,
  /// minutes and seconds two digits up to 59, milliseconds three digits,
  /// hours two digits or more; white space between the parts.
  static func webVTT(_ line: UnsafeBufferPointer<UInt8>) -> Result<CueTiming, Failure> {
    var scanner = Scanner(bytes: line)
    scanner.skipWhitespace()
    guard let start = scanner.webVTTTime() else { return .failure(scanner.failure("a start time [HH:]MM:SS.mmm")) }
    scanner.skipWhitespace()
    guard scanner.take("-->") else { return .failure(scanner.failure("'-->' after the start time")) }
    scanner.skipWhitespace()
    guard let end = scanner.webVTTTime() else { return .failure(scanner.failure("an end time [HH:]MM:SS.mmm")) }
    guard scanner.atEnd || scanner.isWhitespace else {
      return .failure(scanner.failure("white space or the end of the line after the end time"))
    }
    return .success(CueTiming(start: start, end: end, settings: scanner.rest()))
  }

  /// Whether a line starts (after white space) with a whole SubRip time `H:M:S,mmm`.
  static func startsWithSubRipTime(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    var scanner = Scanner(bytes: line)
    scanner.skipWhitespace()
    return scanner.subRipTime() != nil
  }

  /// Whether a line holds `-->` (WebVTT: it is a timing line, or ends the block before it).
  static func hasArrow(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    guard line.count >= 3 else { return false }
    for index in 0..<line.count - 2
    where line[index] == UInt8(ascii: "-") && line[index + 1] == UInt8(ascii: "-")
      && line[index + 2] == UInt8(ascii: ">")
    {
      return true
    }
    return false
  }

  private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    var atEnd: Bool { index >= bytes.count }
    var isWhitespace: Bool { !atEnd && Scanner.isSpace(bytes[index]) }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0C }

    mutating func skipWhitespace() {
      while isWhitespace { index += 1 }
    }

    mutating func take(_ literal: StaticString) -> Bool {
      literal.withUTF8Buffer { literal in
        guard bytes.count - index >= literal.count else { return false }
        for offset in 0..<literal.count where bytes[index + offset] != literal[offset] { return false }
        index += literal.count
        return true
      }
    }

    /// Digits as a number (saturating), and how many there were.
    mutating func digits() -> (value: Int, count: Int) {
      var value = 0
      let start = index
      while !atEnd, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
        value = min(value * 10 + Int(bytes[index] - UInt8(ascii: "0")), 1 << 40)
        index += 1
      }
      return (value, index - start)
    }

    mutating func subRipTime() -> Int? {
      let hours = digits()
      guard hours.count > 0, take(":") else { return nil }
      let minutes = digits()
      guard minutes.count > 0, take(":") else { return nil }
      let seconds = digits()
      guard seconds.count > 0, !atEnd, bytes[index] == UInt8(ascii: ",") || bytes[index] == UInt8(ascii: ".") else {
        return nil
      }
      index += 1
      let milliseconds = digits()
      guard milliseconds.count > 0 else { return nil }
      return ((hours.value * 60 + minutes.value) * 60 + seconds.value) * 1000 + milliseconds.value
    }

    mutating func webVTTTime() -> Int? {
      let first = digits()
      guard first.count >= 2, take(":") else { return nil }
      let second = digits()
      guard second.count == 2 else { return nil }
      var hours = 0
      var minutes = first.value
      var seconds = second.value
      if first.count != 2 || first.value > 59 || (!atEnd && bytes[index] == UInt8(ascii: ":")) {
        guard take(":") else { return nil }
        let third = digits()
        guard third.count == 2 else { return nil }
        (hours, minutes, seconds) = (first.value, second.value, third.value)
      }
      guard take(".") else { return nil }
      let milliseconds = digits()
      guard milliseconds.count == 3, minutes <= 59, seconds <= 59 else { return nil }
      return ((hours * 60 + minutes) * 60 + seconds) * 1000 + milliseconds.value
    }

    func failure(_ expected: String) -> Failure {
      Failure(column: index, message: "broken timing line: expected \(expected)")
    }

    func rest() -> String {
      var start = index
      var end = bytes.count
      while start < end, Scanner.isSpace(bytes[start]) { start += 1 }
      while end > start, Scanner.isSpace(bytes[end - 1]) { end -= 1 }
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }
  }
}
