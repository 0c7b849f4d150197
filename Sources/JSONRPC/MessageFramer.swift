/// The LSP base protocol's framing, as an incremental state machine.
///
/// Feed it byte chunks of any size as they arrive; it reports complete
/// message bodies, oversized messages and framing errors, in input order.
///
/// A message is a header section, then the body:
///
///     Content-Length: 52\r\n
///     Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n
///     \r\n
///     {"jsonrpc":"2.0","id":1,"method":"initialize",...}
///
/// Rules:
/// - Header names are case-insensitive. `Content-Length` is required: ASCII
///   digits, optionally surrounded by spaces or tabs. Every other header
///   (`Content-Type` with any value included) is ignored. A repeated
///   `Content-Length` must repeat the same value.
/// - Lines end with `\r\n`; a bare `\n` is tolerated as well (hand-written
///   input and some clients use it). A header name must be an RFC 9110 token.
/// - Empty lines before a header section are skipped, so a stray newline
///   after a body is harmless.
/// - The header section is limited to `maximumHeaderSize` bytes (64 KiB).
/// - A body longer than `maximumMessageSize` (512 MiB) is reported as
///   `.oversized` as soon as its header is read, and its bytes are skipped
///   as they arrive, never stored.
/// - Memory for a body is allocated as its bytes arrive, in chunks of at most
///   `chunkCapacity` bytes (256 KiB): an announced length is never trusted
///   to reserve memory ahead of the bytes.
///
/// Resynchronisation: a framing error is reported at the first byte that makes
/// the header invalid (or at the end of the header section when
/// `Content-Length` is missing).
/// - When the broken header had already given a valid `Content-Length`, the
///   framer discards the rest of the header section (up to its empty line)
///   and then exactly that many body bytes, so that nothing in the broken
///   message's body (a document's text, say) is ever read as a message.
/// - Otherwise the length of what follows is unknown: the framer discards
///   input until the next occurrence of `Content-Length` (any case,
///   anywhere, not only at a line start, because a broken message's
///   unknown-length body usually runs straight into the next header) and
///   parses a header from there.
/// Every byte is looked at once, so this always makes progress and stays
/// linear; one error is reported per broken stretch of input.
public struct MessageFramer: Sendable {
  /// What the framer found in the input.
  public enum Event: Sendable {
    /// A complete message body.
    case message(MessageBody)
    /// A message announced as `length` bytes, over `limit`; its body is skipped.
    case oversized(length: Int, limit: Int)
    /// Broken framing; input is skipped up to the next `Content-Length`.
    case error(FramingError)
  }

  /// A framing problem.
  public enum FramingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The header section ended without a `Content-Length` header.
    case missingContentLength
    /// `Content-Length` is negative.
    case negativeContentLength
    /// `Content-Length` is empty or not a decimal number.
    case invalidContentLength
    /// `Content-Length` does not fit in 64 bits.
    case contentLengthOverflow
    /// Two `Content-Length` headers with different values.
    case conflictingContentLength
    /// A header line that is not `Name: value` with a token name.
    case malformedHeaderLine
    /// The header section exceeds `limit` bytes.
    case headerTooLong(limit: Int)
    /// Input ended inside a header section.
    case truncatedHeader
    /// Input ended `received` bytes into a body of `expected` bytes.
    case truncatedBody(expected: Int, received: Int)

    public var description: String {
      switch self {
      case .missingContentLength: return "header section without Content-Length"
      case .negativeContentLength: return "negative Content-Length"
      case .invalidContentLength: return "Content-Length is not a decimal number"
      case .contentLengthOverflow: return "Content-Length is too large to represent"
      case .conflictingContentLength: return "conflicting Content-Length headers"
      case .malformedHeaderLine: return "malformed header line (expected 'Name: value')"
      case .headerTooLong(let limit): return "header section longer than \(limit) bytes"
      case .truncatedHeader: return "input ended inside a header section"
      case .truncatedBody(let expected, let received):
        return "input ended after \(received) of \(expected) body bytes"
      }
    }
  }

  /// Bodies longer than this are refused (`.oversized`) and skipped.
  public let maximumMessageSize: Int
  /// Header sections longer than this are an error.
  public let maximumHeaderSize: Int
  /// The largest piece of memory reserved for a body before its bytes arrive.
  public let chunkCapacity: Int

  public init(
    maximumMessageSize: Int = 512 << 20,
    maximumHeaderSize: Int = 64 << 10,
    chunkCapacity: Int = 256 << 10
  ) {
    self.maximumMessageSize = max(0, maximumMessageSize)
    self.maximumHeaderSize = max(16, maximumHeaderSize)
    self.chunkCapacity = max(1, chunkCapacity)
  }

  // MARK: State

  private enum State: Sendable {
    /// Reading a header section.
    case header
    /// Reading a body; `remaining` bytes to go.
    case body(remaining: Int)
    /// Skipping an oversized body.
    case skipping(remaining: Int)
    /// After an error: looking for `Content-Length`; `matched` bytes of it seen.
    case resync(matched: Int)
    /// After an error in a header whose `Content-Length` was read: skipping
    /// the rest of the header section (`lineLength` bytes of the current
    /// line seen, `budget` bytes left before giving up), then the body.
    case discardingHeader(bodyLength: Int, lineLength: Int, budget: Int)
  }

  private enum LinePhase: Sendable {
    case name
    case value
  }

  /// Parsing `Content-Length`'s value.
  private enum NumberPhase: Sendable {
    case leadingSpace, digits, trailingSpace
  }

  private var state = State.header
  private var body = ChunkBuffer()
  private var bodyLength = 0

  // Header section.
  private var sectionBytes = 0
  private var sectionHasLines = false
  private var contentLength: Int? = nil
  // Current header line.
  private var phase = LinePhase.name
  private var nameLength = 0
  /// Bytes of "content-length" matched by the name so far; -1 once it differs.
  private var nameMatch = 0
  private var sawCR = false
  private var isContentLength = false
  private var numberPhase = NumberPhase.leadingSpace
  private var number = 0

  /// "content-length", lowercase ASCII.
  private static let contentLengthName: [UInt8] = Array("content-length".utf8)

  /// The memory currently reserved for the body being read.
  public var bufferedBodyCapacity: Int { body.allocatedCapacity }

  /// True between messages (nothing partial is buffered or being skipped).
  public var isAtMessageBoundary: Bool {
    if case .header = state { return sectionBytes == 0 && nameLength == 0 && !sawCR }
    return false
  }

  // MARK: Feeding

  /// Consumes `bytes`, calling `onEvent` for each event, in order.
  public mutating func feed(_ bytes: UnsafeRawBufferPointer, onEvent: (Event) -> Void) {
    var index = 0
    let count = bytes.count
    while index < count {
      switch state {
      case .body(let remaining):
        let take = min(remaining, count - index)
        body.append(
          UnsafeRawBufferPointer(rebasing: bytes[index..<index + take]),
          remaining: remaining, chunkCapacity: chunkCapacity)
        index += take
        if take == remaining {
          state = .header
          let done = MessageBody(body)
          body = ChunkBuffer()
          onEvent(.message(done))
        } else {
          state = .body(remaining: remaining - take)
        }
      case .skipping(let remaining):
        let take = min(remaining, count - index)
        index += take
        state = take == remaining ? .header : .skipping(remaining: remaining - take)
      case .discardingHeader(let length, var lineLength, var budget):
        var ended = false
        while index < count && budget > 0 {
          let byte = bytes[index]
          index += 1
          budget -= 1
          if byte == UInt8(ascii: "\n") {
            if lineLength == 0 {
              ended = true
              break
            }
            lineLength = 0
          } else if byte != UInt8(ascii: "\r") {
            lineLength += 1
          }
        }
        if ended {
          startSection()
          state = length > 0 ? .skipping(remaining: length) : .header
        } else if budget == 0 {
          // No end to the header section in sight: look for the next one.
          state = .resync(matched: 0)
        } else {
          state = .discardingHeader(bodyLength: length, lineLength: lineLength, budget: budget)
        }
      case .resync(var matched):
        let name = Self.contentLengthName
        while index < count {
          let byte = Self.lowercased(bytes[index])
          index += 1
          if byte == name[matched] {
            matched += 1
            if matched == name.count { break }
          } else {
            matched = byte == name[0] ? 1 : 0
          }
        }
        if matched == name.count {
          startSection()
          nameLength = matched
          nameMatch = matched
          sectionBytes = matched
        } else {
          state = .resync(matched: matched)
        }
      case .header:
        while index < count, case .header = state {
          let byte = bytes[index]
          index += 1
          headerByte(byte, onEvent: onEvent)
        }
      }
    }
  }

  /// Consumes `bytes` and returns the events.
  public mutating func feed(_ bytes: [UInt8]) -> [Event] {
    var events: [Event] = []
    bytes.withUnsafeBytes { raw in feed(raw) { events.append($0) } }
    return events
  }

  /// Ends the input: reports a message cut short, if any, and resets.
  public mutating func finish() -> Event? {
    defer {
      body = ChunkBuffer()
      startSection()
    }
    switch state {
    case .body(let remaining):
      return .error(.truncatedBody(expected: bodyLength, received: bodyLength - remaining))
    case .header:
      return isAtMessageBoundary ? nil : .error(.truncatedHeader)
    case .skipping, .resync, .discardingHeader:
      return nil  // already reported
    }
  }

  // MARK: Header parsing

  private mutating func startSection() {
    state = .header
    sectionBytes = 0
    sectionHasLines = false
    contentLength = nil
    startLine()
  }

  private mutating func startLine() {
    phase = .name
    nameLength = 0
    nameMatch = 0
    sawCR = false
    isContentLength = false
    numberPhase = .leadingSpace
    number = 0
  }

  /// Reports `error` and resynchronises (see the type's documentation);
  /// `atLineEnd` tells that the failing byte ended a header line.
  private mutating func fail(_ error: FramingError, atLineEnd: Bool = false, onEvent: (Event) -> Void) {
    if let length = contentLength, error != .conflictingContentLength, error != .headerTooLong(limit: maximumHeaderSize)
    {
      state = .discardingHeader(bodyLength: length, lineLength: atLineEnd ? 0 : 1, budget: maximumHeaderSize)
    } else {
      state = .resync(matched: 0)
    }
    onEvent(.error(error))
  }

  private mutating func headerByte(_ byte: UInt8, onEvent: (Event) -> Void) {
    sectionBytes += 1
    if sectionBytes > maximumHeaderSize {
      return fail(.headerTooLong(limit: maximumHeaderSize), onEvent: onEvent)
    }
    switch phase {
    case .name:
      if sawCR {
        // Only "\r\n" may follow a CR in a name: that is an empty line.
        guard byte == UInt8(ascii: "\n"), nameLength == 0 else {
          return fail(.malformedHeaderLine, atLineEnd: byte == UInt8(ascii: "\n"), onEvent: onEvent)
        }
        return endOfEmptyLine(onEvent: onEvent)
      }
      switch byte {
      case UInt8(ascii: ":"):
        guard nameLength > 0 else { return fail(.malformedHeaderLine, onEvent: onEvent) }
        phase = .value
        isContentLength = nameMatch == Self.contentLengthName.count
      case UInt8(ascii: "\n"):
        guard nameLength == 0 else { return fail(.malformedHeaderLine, atLineEnd: true, onEvent: onEvent) }
        endOfEmptyLine(onEvent: onEvent)
      case UInt8(ascii: "\r"):
        guard nameLength == 0 else { return fail(.malformedHeaderLine, onEvent: onEvent) }
        sawCR = true
      default:
        guard Self.isTokenByte(byte) else { return fail(.malformedHeaderLine, onEvent: onEvent) }
        let name = Self.contentLengthName
        if nameMatch >= 0, nameMatch < name.count, Self.lowercased(byte) == name[nameMatch] {
          nameMatch += 1
        } else {
          nameMatch = -1
        }
        nameLength += 1
      }
    case .value:
      if byte == UInt8(ascii: "\n") { return endOfHeaderLine(onEvent: onEvent) }
      if sawCR {
        // A CR inside a value: harmless in other headers, wrong in Content-Length.
        sawCR = false
        if isContentLength { return fail(.invalidContentLength, onEvent: onEvent) }
      }
      if byte == UInt8(ascii: "\r") {
        sawCR = true
        return
      }
      if isContentLength { contentLengthByte(byte, onEvent: onEvent) }
    }
  }

  private mutating func contentLengthByte(_ byte: UInt8, onEvent: (Event) -> Void) {
    let isSpace = byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    switch numberPhase {
    case .leadingSpace:
      if isSpace { return }
      if byte == UInt8(ascii: "-") { return fail(.negativeContentLength, onEvent: onEvent) }
      guard isDigit else { return fail(.invalidContentLength, onEvent: onEvent) }
      numberPhase = .digits
      number = Int(byte - UInt8(ascii: "0"))
    case .digits:
      if isSpace {
        numberPhase = .trailingSpace
        return
      }
      guard isDigit else { return fail(.invalidContentLength, onEvent: onEvent) }
      let (times10, overflow1) = number.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
      guard !overflow1, !overflow2 else { return fail(.contentLengthOverflow, onEvent: onEvent) }
      number = sum
    case .trailingSpace:
      guard isSpace else { return fail(.invalidContentLength, onEvent: onEvent) }
    }
  }

  private mutating func endOfHeaderLine(onEvent: (Event) -> Void) {
    if isContentLength {
      guard numberPhase != .leadingSpace else {
        return fail(.invalidContentLength, atLineEnd: true, onEvent: onEvent)
      }
      if let previous = contentLength, previous != number {
        return fail(.conflictingContentLength, onEvent: onEvent)
      }
      contentLength = number
    }
    sectionHasLines = true
    startLine()
  }

  private mutating func endOfEmptyLine(onEvent: (Event) -> Void) {
    guard sectionHasLines else {
      // A blank line before any header: skip it.
      sectionBytes = 0
      startLine()
      return
    }
    guard let length = contentLength else { return fail(.missingContentLength, onEvent: onEvent) }
    startSection()
    if length > maximumMessageSize {
      state = .skipping(remaining: length)
      onEvent(.oversized(length: length, limit: maximumMessageSize))
    } else if length == 0 {
      onEvent(.message(MessageBody()))
    } else {
      bodyLength = length
      state = .body(remaining: length)
    }
  }

  // MARK: Bytes

  private static func lowercased(_ byte: UInt8) -> UInt8 {
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
