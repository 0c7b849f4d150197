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
/// Rules (`HeaderLine` parses each line):
/// - Header names are case-insensitive. `Content-Length` is required: ASCII
///   digits, optionally surrounded by spaces or tabs. Every other header
///   (`Content-Type` with any value included) is ignored.
/// - Lines end with `\r\n`; a bare `\n` is tolerated as well. A header name
///   must be an RFC 9110 token. A header line is limited to
///   `maximumHeaderLineLength` bytes (64 KiB), its line break included.
/// - Empty lines before a header section are skipped.
/// - A body is exactly the announced number of bytes, whatever they hold.
///   Memory for it is allocated as its bytes arrive, in chunks of at most
///   `chunkCapacity` bytes (256 KiB): an announced length is never trusted
///   to reserve memory ahead of the bytes.
///
/// Resynchronisation. A message may begin wherever a `Content-Length` header
/// name begins (any case, anywhere: the tail of a broken message usually
/// runs straight into the next header). After a broken header the framer
/// reads the next message from the earliest `Content-Length` name, after the
/// broken section's start, from which a valid header section can be read;
/// it never skips bytes by count after a broken header:
/// - A broken line (bad name, bad `Content-Length` value, too long, …)
///   fails at its first bad byte, and no `Content-Length` name before that
///   byte can start a valid section: the search resumes there, or at a
///   `Content-Length` name begun inside the broken line before it.
/// - A section that ends without `Content-Length` is read from the first
///   `Content-Length: N` line that began inside one of its lines (as in
///   `2Content-Length: 9`, the tail of a body announced too short), if any.
/// - A `Content-Length` that contradicts an earlier one in the section
///   starts the section anew: the later header wins.
/// - A length over `maximumMessageSize` (512 MiB) is reported as
///   `.oversized` and the search resumes right after its header: its bytes
///   are looked at as they pass, never stored nor counted.
/// The first error of a broken stretch is reported; errors met while
/// resynchronising are part of it. Every byte is looked at a bounded number
/// of times, so this is linear and always makes progress.
package struct MessageFramer: Sendable {
  /// What the framer found in the input.
  package enum Event: Sendable {
    /// A complete message body.
    case message(MessageBody)
    /// A message announced as `length` bytes, over `limit`; the framer
    /// resynchronises after its header.
    case oversized(length: Int, limit: Int)
    /// Broken framing; the framer resynchronises.
    case error(FramingError)
  }

  /// A framing problem.
  package enum FramingError: Error, Hashable, Sendable, CustomStringConvertible {
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
    /// A header line exceeds `limit` bytes.
    case headerLineTooLong(limit: Int)
    /// Input ended inside a header section.
    case truncatedHeader
    /// Input ended `received` bytes into a body of `expected` bytes.
    case truncatedBody(expected: Int, received: Int)

    package var description: String {
      switch self {
      case .missingContentLength: return "header section without Content-Length"
      case .negativeContentLength: return "negative Content-Length"
      case .invalidContentLength: return "Content-Length is not a decimal number"
      case .contentLengthOverflow: return "Content-Length is too large to represent"
      case .conflictingContentLength: return "conflicting Content-Length headers"
      case .malformedHeaderLine: return "malformed header line (expected 'Name: value')"
      case .headerLineTooLong(let limit): return "header line longer than \(limit) bytes"
      case .truncatedHeader: return "input ended inside a header section"
      case .truncatedBody(let expected, let received):
        return "input ended after \(received) of \(expected) body bytes"
      }
    }
  }

  /// Bodies longer than this are refused (`.oversized`).
  package let maximumMessageSize: Int
  /// Header lines longer than this (line break included) are an error.
  package let maximumHeaderLineLength: Int
  /// The largest piece of memory reserved for a body before its bytes arrive.
  package let chunkCapacity: Int
  /// Whether the caller reads the bodies itself: `feed` stops where a
  /// non-empty body begins (`streamedBodyLength` tells its length), and the
  /// caller consumes exactly that many bytes (decoding them as they arrive)
  /// before calling `endStreamedBody()` and feeding the bytes after it.
  package let streamsBodies: Bool

  package init(
    maximumMessageSize: Int = 512 << 20,
    maximumHeaderLineLength: Int = 64 << 10,
    chunkCapacity: Int = 256 << 10,
    streamsBodies: Bool = false
  ) {
    self.maximumMessageSize = max(0, maximumMessageSize)
    self.maximumHeaderLineLength = max(32, maximumHeaderLineLength)
    self.chunkCapacity = max(1, chunkCapacity)
    self.streamsBodies = streamsBodies
    line = HeaderLine(limit: self.maximumHeaderLineLength)
  }

  /// The same under `Connection.Options`' name: `maximumHeaderSize` limits
  /// each header line, not a whole header section.
  package init(maximumMessageSize: Int = 512 << 20, maximumHeaderSize: Int, streamsBodies: Bool = false) {
    self.init(
      maximumMessageSize: maximumMessageSize, maximumHeaderLineLength: maximumHeaderSize,
      streamsBodies: streamsBodies)
  }

  // MARK: State

  private enum State: Sendable {
    /// Reading a header section.
    case header
    /// Reading a body; `remaining` bytes to go.
    case body(remaining: Int)
    /// Resynchronising: looking for `Content-Length`; `matched` bytes of it seen.
    case searching(matched: Int)
    /// A body of `length` bytes begins, read by the caller (`streamsBodies`).
    case streamedBody(length: Int)
  }

  private var state = State.header
  private var body = ChunkBuffer()
  private var bodyLength = 0
  /// From a reported error or oversized message to the next message: the
  /// errors met meanwhile belong to the same broken stretch.
  private var resynchronising = false

  // The header section.
  private var sectionHasLines = false
  private var contentLength: Int? = nil
  private var line: HeaderLine
  /// A `Content-Length` name that began inside the current line (not at its
  /// start), parsed as a line of its own while it can still be one.
  private var embedded: HeaderLine? = nil
  /// The value of the section's first complete embedded `Content-Length` line.
  private var embeddedLength: Int? = nil

  /// The memory currently reserved for the body being read.
  package var bufferedBodyCapacity: Int { body.allocatedCapacity }

  /// True between messages (nothing partial is buffered or being skipped).
  package var isAtMessageBoundary: Bool {
    if case .header = state { return !sectionHasLines && line.isEmpty && !resynchronising }
    return false
  }

  // MARK: Feeding

  /// The length of the body that begins where `feed` stopped, when the
  /// caller reads bodies (`streamsBodies`); nil otherwise.
  package var streamedBodyLength: Int? {
    if case .streamedBody(let length) = state { return length }
    return nil
  }

  /// After the caller has consumed the `streamedBodyLength` bytes of a
  /// streamed body (or given up at the end of input): reads headers again.
  package mutating func endStreamedBody() {
    guard case .streamedBody = state else { return }
    state = .header
    resynchronising = false
  }

  /// Consumes `bytes`, calling `onEvent` for each event, in order. Returns
  /// how many bytes it consumed: all of them, unless it stopped where a
  /// streamed body begins (`streamedBodyLength`).
  @discardableResult
  package mutating func feed(_ bytes: UnsafeRawBufferPointer, onEvent: (Event) -> Void) -> Int {
    var index = 0
    let count = bytes.count
    while index < count {
      switch state {
      case .streamedBody:
        return index
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
          emit(.message(done), onEvent)
        } else {
          state = .body(remaining: remaining - take)
        }
      case .searching(var matched):
        let name = HeaderLine.contentLengthName
        while index < count {
          let byte = HeaderLine.lowercased(bytes[index])
          index += 1
          if byte == name[matched] {
            matched += 1
            if matched == name.count { break }
          } else {
            matched = byte == name[0] ? 1 : 0
          }
        }
        if matched == name.count {
          startSection(with: .afterContentLengthName(limit: maximumHeaderLineLength))
        } else {
          state = .searching(matched: matched)
        }
      case .header:
        while index < count, case .header = state {
          let byte = bytes[index]
          index += 1
          headerByte(byte, onEvent: onEvent)
        }
      }
    }
    return index
  }

  /// Consumes `bytes` and returns the events.
  package mutating func feed(_ bytes: [UInt8]) -> [Event] {
    var events: [Event] = []
    _ = bytes.withUnsafeBytes { raw in feed(raw) { events.append($0) } }
    return events
  }

  /// Ends the input: reports a message cut short, if any, and resets.
  package mutating func finish() -> Event? {
    defer {
      body = ChunkBuffer()
      resynchronising = false
      startSection(with: HeaderLine(limit: maximumHeaderLineLength))
    }
    switch state {
    case .body(let remaining):
      return .error(.truncatedBody(expected: bodyLength, received: bodyLength - remaining))
    case .header:
      return isAtMessageBoundary || resynchronising ? nil : .error(.truncatedHeader)
    case .searching:
      return nil  // already reported
    case .streamedBody(let length):
      return .error(.truncatedBody(expected: length, received: 0))
    }
  }

  // MARK: Header section

  private mutating func startSection(with first: HeaderLine) {
    state = .header
    sectionHasLines = false
    contentLength = nil
    line = first
    embedded = nil
    embeddedLength = nil
  }

  private mutating func emit(_ event: Event, _ onEvent: (Event) -> Void) {
    if case .message = event { resynchronising = false }
    onEvent(event)
  }

  /// Reports the first error of a broken stretch.
  private mutating func report(_ error: FramingError, _ onEvent: (Event) -> Void) {
    if !resynchronising { onEvent(.error(error)) }
    resynchronising = true
  }

  private mutating func headerByte(_ byte: UInt8, onEvent: (Event) -> Void) {
    let atLineStart = line.isEmpty
    let outcome = line.consume(byte)
    let embeddedLine = trackEmbeddedName(byte, atLineStart: atLineStart)
    switch outcome {
    case .pending:
      return
    case .failed(let error):
      report(error, onEvent)
      if let candidate = embedded {
        // A Content-Length name began inside the broken line and is still
        // whole: the next section starts there.
        startSection(with: candidate)
      } else if let length = embeddedLine {
        // Such a line ended at this byte (the broken line was too long).
        startSection(with: HeaderLine(limit: maximumHeaderLineLength))
        sectionHasLines = true
        contentLength = length
      } else {
        startSection(with: HeaderLine(limit: maximumHeaderLineLength))
        state = .searching(matched: 0)
      }
    case .header(let length):
      sectionHasLines = true
      line = HeaderLine(limit: maximumHeaderLineLength)
      guard let length else { return }
      if let previous = contentLength, previous != length {
        // The later header starts the section anew.
        report(.conflictingContentLength, onEvent)
      }
      contentLength = length
    case .blank:
      line = HeaderLine(limit: maximumHeaderLineLength)
      // A blank line before any header: skip it.
      guard sectionHasLines else { return }
      if contentLength == nil, let length = embeddedLength {
        // The section's lines before that name were garbage.
        report(.missingContentLength, onEvent)
        contentLength = length
      }
      guard let length = contentLength else {
        report(.missingContentLength, onEvent)
        startSection(with: line)
        state = .searching(matched: 0)
        return
      }
      startSection(with: line)
      if length > maximumMessageSize {
        resynchronising = true
        onEvent(.oversized(length: length, limit: maximumMessageSize))
        state = .searching(matched: 0)
      } else if length == 0 {
        emit(.message(MessageBody()), onEvent)
      } else {
        bodyLength = length
        state = streamsBodies ? .streamedBody(length: length) : .body(remaining: length)
      }
    }
  }

  /// Follows a `Content-Length` name that begins inside the current line;
  /// returns its value when its line ends at `byte`.
  private mutating func trackEmbeddedName(_ byte: UInt8, atLineStart: Bool) -> Int? {
    if var candidate = embedded {
      let outcome = candidate.consume(byte)
      if case .header(let length?) = outcome {
        if embeddedLength == nil { embeddedLength = length }
        embedded = nil
        return length
      }
      if case .pending = outcome, candidate.mayBeContentLength {
        embedded = candidate
        return nil
      }
      embedded = nil  // no longer a Content-Length line; one may begin at this byte
    }
    if !atLineStart, HeaderLine.lowercased(byte) == HeaderLine.contentLengthName[0] {
      var candidate = HeaderLine(limit: maximumHeaderLineLength)
      _ = candidate.consume(byte)
      embedded = candidate
    }
    return nil
  }
}
