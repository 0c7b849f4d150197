/// One LSP header line, parsed a byte at a time: `Name: value` ended by
/// `\r\n` or a bare `\n`, or an empty line.
///
/// - The name is an RFC 9110 token, matched against `Content-Length`
///   case-insensitively; the value of `Content-Length` is ASCII digits,
///   optionally surrounded by spaces or tabs, and fits in 64 bits. Any other
///   header's value is ignored (a CR inside it too).
/// - A line longer than `limit` bytes, its line break included, is an error.
///
/// `MessageFramer` runs one for the line it reads and, when a
/// `Content-Length` name begins inside that line, a second one from there
/// (a message may begin there if the line turns out to be garbage).
struct HeaderLine: Sendable {
  /// What one byte did to the line.
  enum Outcome: Equatable, Sendable {
    /// The line goes on.
    case pending
    /// An empty line ended.
    case blank
    /// A header line ended: the value when it was `Content-Length`.
    case header(contentLength: Int?)
    /// The line is broken at this byte.
    case failed(MessageFramer.FramingError)
  }

  private enum Phase: Sendable {
    case name, value
  }

  private enum NumberPhase: Sendable {
    case leadingSpace, digits, trailingSpace
  }

  /// "content-length", lowercase ASCII.
  static let contentLengthName: [UInt8] = Array("content-length".utf8)

  /// The longest line accepted, line break included.
  let limit: Int
  /// Bytes consumed so far.
  private(set) var length = 0
  private var phase = Phase.name
  private var nameLength = 0
  /// Letters of "content-length" the name has matched from its start; -1
  /// once it differs.
  private var nameMatch = 0
  private var sawCR = false
  private var isContentLength = false
  private var numberPhase = NumberPhase.leadingSpace
  private var number = 0

  init(limit: Int) {
    self.limit = limit
  }

  /// A line whose first bytes were the name `content-length` (any case).
  static func afterContentLengthName(limit: Int) -> HeaderLine {
    var line = HeaderLine(limit: limit)
    for byte in contentLengthName { _ = line.consume(byte) }
    return line
  }

  var isEmpty: Bool { length == 0 }

  /// True while the line can still be a `Content-Length` header: its name is
  /// a prefix of that name, or it is that header and its value is valid so far.
  var mayBeContentLength: Bool {
    switch phase {
    case .name: return nameMatch >= 0 && !sawCR
    case .value: return isContentLength
    }
  }

  mutating func consume(_ byte: UInt8) -> Outcome {
    length += 1
    if length > limit { return .failed(.headerLineTooLong(limit: limit)) }
    switch phase {
    case .name:
      if sawCR {
        // Only "\r\n" may follow a CR in a name: an empty line.
        return byte == UInt8(ascii: "\n") ? .blank : .failed(.malformedHeaderLine)
      }
      switch byte {
      case UInt8(ascii: ":"):
        guard nameLength > 0 else { return .failed(.malformedHeaderLine) }
        phase = .value
        isContentLength = nameMatch == Self.contentLengthName.count
      case UInt8(ascii: "\n"):
        return nameLength == 0 ? .blank : .failed(.malformedHeaderLine)
      case UInt8(ascii: "\r"):
        guard nameLength == 0 else { return .failed(.malformedHeaderLine) }
        sawCR = true
      default:
        guard Self.isTokenByte(byte) else { return .failed(.malformedHeaderLine) }
        let name = Self.contentLengthName
        if nameMatch >= 0, nameMatch < name.count, Self.lowercased(byte) == name[nameMatch] {
          nameMatch += 1
        } else {
          nameMatch = -1
        }
        nameLength += 1
      }
      return .pending
    case .value:
      if byte == UInt8(ascii: "\n") { return endOfLine() }
      if sawCR {
        // A CR inside a value: harmless in other headers, wrong in Content-Length.
        sawCR = false
        if isContentLength { return .failed(.invalidContentLength) }
      }
      if byte == UInt8(ascii: "\r") {
        sawCR = true
        return .pending
      }
      return isContentLength ? contentLengthByte(byte) : .pending
    }
  }

  private mutating func contentLengthByte(_ byte: UInt8) -> Outcome {
    let isSpace = byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    switch numberPhase {
    case .leadingSpace:
      if isSpace { return .pending }
      if byte == UInt8(ascii: "-") { return .failed(.negativeContentLength) }
      guard isDigit else { return .failed(.invalidContentLength) }
      numberPhase = .digits
      number = Int(byte - UInt8(ascii: "0"))
    case .digits:
      if isSpace {
        numberPhase = .trailingSpace
        return .pending
      }
      guard isDigit else { return .failed(.invalidContentLength) }
      let (times10, overflow1) = number.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
      guard !overflow1, !overflow2 else { return .failed(.contentLengthOverflow) }
      number = sum
    case .trailingSpace:
      guard isSpace else { return .failed(.invalidContentLength) }
    }
    return .pending
  }

  private func endOfLine() -> Outcome {
    guard isContentLength else { return .header(contentLength: nil) }
    guard numberPhase != .leadingSpace else { return .failed(.invalidContentLength) }
    return .header(contentLength: number)
  }

  // MARK: Bytes

  static func lowercased(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
  }

  /// RFC 9110 `tchar`: ALPHA / DIGIT / one of ``!#$%&'*+-.^_`|~``.
  private static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"),
      UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"),
      UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
      UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
      return true
    default:
      return false
    }
  }
}
