/// The framing and resynchronisation rules of Protocol/specification.md
/// (Transport → Malformed input), stated as naively as possible over a whole
/// input, to check `MessageFramer` against: it backtracks, splits lines,
/// tries every `Content-Length` name in turn, and knows nothing of the
/// framer's state machine. Self-contained (the fuzz target compiles it too).
///
/// - At a message boundary, blank lines are skipped and a header section is
///   read. A valid one gives its body (or, over the size limit, an
///   oversized event); a broken one gives one error.
/// - After an error, the next message is read from the earliest
///   `Content-Length` name (any case, anywhere) after the broken section's
///   start from which a valid header section can be read; after an
///   oversized message, from the earliest one after its header.
/// - An error is reported once per broken stretch: the stretch lasts until
///   a message is read.
enum FramingModel {
  enum Event: Equatable, CustomStringConvertible {
    case message([UInt8])
    case oversized(Int)
    case error

    var description: String {
      switch self {
      case .message(let bytes): return "message(\(String(decoding: bytes, as: UTF8.self).debugDescription))"
      case .oversized(let length): return "oversized(\(length))"
      case .error: return "error"
      }
    }
  }

  private enum Section {
    /// A valid header section announcing `length`; the body starts at `bodyStart`.
    case valid(length: Int, bodyStart: Int)
    /// The input ends inside a section that is valid so far.
    case incomplete
    case invalid
  }

  static let name = Array("content-length".utf8)

  static func frame(_ input: [UInt8], lineLimit: Int, messageLimit: Int) -> [Event] {
    var events: [Event] = []
    var position = 0
    var searchFrom: Int? = nil  // non-nil while resynchronising
    while true {
      let section: Section
      if let start = searchFrom {
        var found: (Int, Section)? = nil
        var at = start
        while let candidate = nextName(in: input, from: at) {
          let result = parse(input, at: candidate, lineLimit: lineLimit)
          if case .invalid = result {
            at = candidate + 1
            continue
          }
          found = (candidate, result)
          break
        }
        guard let found else { return events }
        section = found.1
      } else {
        while let end = blankLineEnd(input, at: position) { position = end }
        if position == input.count { return events }
        section = parse(input, at: position, lineLimit: lineLimit)
      }
      switch section {
      case .invalid:
        if searchFrom == nil {
          events.append(.error)
          searchFrom = position + 1
        }
      case .incomplete:
        if searchFrom == nil { events.append(.error) }
        return events
      case .valid(let length, let bodyStart):
        if length > messageLimit {
          events.append(.oversized(length))
          searchFrom = bodyStart
        } else if input.count - bodyStart < length {
          events.append(.error)
          return events
        } else {
          events.append(.message(Array(input[bodyStart..<bodyStart + length])))
          position = bodyStart + length
          searchFrom = nil
        }
      }
    }
  }

  // MARK: Pieces

  private static func lowercased(_ byte: UInt8) -> UInt8 {
    (65...90).contains(byte) ? byte + 32 : byte
  }

  private static func nextName(in input: [UInt8], from start: Int) -> Int? {
    var index = start
    while index + name.count <= input.count {
      if (0..<name.count).allSatisfy({ lowercased(input[index + $0]) == name[$0] }) { return index }
      index += 1
    }
    return nil
  }

  private static func blankLineEnd(_ input: [UInt8], at index: Int) -> Int? {
    if index < input.count, input[index] == 10 { return index + 1 }
    if index + 1 < input.count, input[index] == 13, input[index + 1] == 10 { return index + 2 }
    return nil
  }

  private static func parse(_ input: [UInt8], at start: Int, lineLimit: Int) -> Section {
    var position = start
    var length: Int? = nil
    while true {
      guard let lineFeed = input[position...].firstIndex(of: 10) else {
        let rest = Array(input[position...])
        return rest.count < lineLimit && isLinePrefix(rest) ? .incomplete : .invalid
      }
      if lineFeed + 1 - position > lineLimit { return .invalid }
      var content = Array(input[position..<lineFeed])
      if content.last == 13 { content.removeLast() }
      position = lineFeed + 1
      if content.isEmpty {
        guard let length else { return .invalid }
        return .valid(length: length, bodyStart: position)
      }
      switch headerLine(content) {
      case .none: return .invalid
      case .some(.none): continue
      case .some(.some(let value)):
        if let length, length != value { return .invalid }
        length = value
      }
    }
  }

  private static func isToken(_ byte: UInt8) -> Bool {
    (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
      || Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
  }

  /// nil: not a header line; .some(nil): a header other than Content-Length.
  private static func headerLine(_ content: [UInt8]) -> Int?? {
    guard let colon = content.firstIndex(of: 58), colon > 0, content[..<colon].allSatisfy(isToken) else {
      return nil
    }
    guard content[..<colon].map(lowercased) == name else { return .some(nil) }
    let value = content[(colon + 1)...].drop { $0 == 32 || $0 == 9 }
    let digits = value.prefix { (48...57).contains($0) }
    guard !digits.isEmpty, value.dropFirst(digits.count).allSatisfy({ $0 == 32 || $0 == 9 }) else { return nil }
    var number = 0
    for digit in digits {
      let (times10, o1) = number.multipliedReportingOverflow(by: 10)
      let (sum, o2) = times10.addingReportingOverflow(Int(digit) - 48)
      if o1 || o2 { return nil }
      number = sum
    }
    return .some(number)
  }

  /// Whether more bytes can make `bytes` (no line feed in it) a valid line.
  private static func isLinePrefix(_ bytes: [UInt8]) -> Bool {
    if bytes == [13] { return true }
    guard let colon = bytes.firstIndex(of: 58) else { return bytes.allSatisfy(isToken) }
    guard colon > 0, bytes[..<colon].allSatisfy(isToken) else { return false }
    guard bytes[..<colon].map(lowercased) == name else { return true }
    var value = Array(bytes[(colon + 1)...])
    if value.last == 13 {
      // Only a line break may follow, and only after digits.
      value.removeLast()
      guard value.contains(where: { (48...57).contains($0) }) else { return false }
    }
    // Spaces, digits, spaces, with no overflow so far.
    var completed = value
    if !completed.contains(where: { (48...57).contains($0) }) { completed.append(48) }
    return headerLine(Array("content-length:".utf8) + completed) != nil
  }
}
