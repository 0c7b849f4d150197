import BidiTestSupport
import JSONRPC
import XCTest

/// A comparable summary of a framer event.
private enum Seen: Equatable, CustomStringConvertible {
  case message(String)
  case oversized(Int)
  case error(MessageFramer.FramingError)

  init(_ event: MessageFramer.Event) {
    switch event {
    case .message(let body): self = .message(String(decoding: body.bytes, as: UTF8.self))
    case .oversized(let length, _): self = .oversized(length)
    case .error(let error): self = .error(error)
    }
  }

  var description: String {
    switch self {
    case .message(let text): return "message(\(text))"
    case .oversized(let length): return "oversized(\(length))"
    case .error(let error): return "error(\(error))"
    }
  }
}

private func framed(_ body: String, header: String? = nil) -> [UInt8] {
  Array((header ?? "Content-Length: \(body.utf8.count)\r\n\r\n").utf8) + Array(body.utf8)
}

/// Feeds `chunks` to a fresh framer, then ends the input.
private func frameAll(
  _ chunks: [[UInt8]], framer: MessageFramer = MessageFramer(), finish: Bool = true
) -> [Seen] {
  var framer = framer
  var seen: [Seen] = []
  for chunk in chunks { seen += framer.feed(chunk).map(Seen.init) }
  if finish, let last = framer.finish() { seen.append(Seen(last)) }
  return seen
}

/// The events of `bytes` in the model's terms (errors without their kind).
private func modelEvents(_ seen: [Seen]) -> [FramingModel.Event] {
  seen.map {
    switch $0 {
    case .message(let text): return .message(Array(text.utf8))
    case .oversized(let length): return .oversized(length)
    case .error: return .error
    }
  }
}

/// Asserts that `bytes` frame as `expected` fed whole, a byte at a time and
/// split in two at every point, and that `FramingModel` agrees.
private func assertFrames(
  _ bytes: [UInt8], _ expected: [Seen], framer: MessageFramer = MessageFramer(),
  file: StaticString = #filePath, line: UInt = #line
) {
  let shown = String(decoding: bytes, as: UTF8.self).debugDescription
  XCTAssertEqual(frameAll([bytes], framer: framer), expected, "whole: \(shown)", file: file, line: line)
  XCTAssertEqual(
    frameAll(bytes.map { [$0] }, framer: framer), expected, "byte by byte: \(shown)", file: file, line: line)
  for split in 0...bytes.count {
    let seen = frameAll([Array(bytes[..<split]), Array(bytes[split...])], framer: framer)
    if seen != expected {
      return XCTFail("split at \(split): \(seen) in \(shown)", file: file, line: line)
    }
  }
  let model = FramingModel.frame(
    bytes, lineLimit: framer.maximumHeaderLineLength, messageLimit: framer.maximumMessageSize)
  XCTAssertEqual(model, modelEvents(expected), "the model disagrees: \(shown)", file: file, line: line)
}

final class MessageFramerTests: XCTestCase {
  private let messages = [
    #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
    #"{"jsonrpc":"2.0","method":"initialized","params":{"x":"שלום 😀"}}"#,
    "",
    #"{"jsonrpc":"2.0","id":"two","method":"shutdown"}"#,
  ]

  private var stream: [UInt8] { messages.flatMap { framed($0) } }
  private var expected: [Seen] { messages.map { .message($0) } }

  // MARK: Chunking (the ByteToMessageDecoderVerifier idea)

  func testWholeStreamInOneChunk() {
    XCTAssertEqual(frameAll([stream]), expected)
  }

  func testOneByteAtATime() {
    XCTAssertEqual(frameAll(stream.map { [$0] }), expected)
  }

  func testOneMessagePerChunk() {
    XCTAssertEqual(frameAll(messages.map { framed($0) }), expected)
  }

  func testSplitAtEveryPoint() {
    let bytes = stream
    for split in 0...bytes.count {
      let seen = frameAll([Array(bytes[..<split]), Array(bytes[split...])])
      XCTAssertEqual(seen, expected, "split at \(split)")
    }
  }

  func testSplitInThreeAtEveryPairOfPointsInTheFirstMessage() {
    let bytes = stream
    let first = framed(messages[0]).count
    for i in 0...first {
      for j in i...first {
        let seen = frameAll([Array(bytes[..<i]), Array(bytes[i..<j]), Array(bytes[j...])])
        XCTAssertEqual(seen, expected, "split at \(i), \(j)")
      }
    }
  }

  func testAtMessageBoundaryOnlyBetweenMessages() {
    var framer = MessageFramer()
    XCTAssertTrue(framer.isAtMessageBoundary)
    _ = framer.feed(Array("Content-Len".utf8))
    XCTAssertFalse(framer.isAtMessageBoundary)
    _ = framer.feed(Array("gth: 2\r\n\r\n{".utf8))
    XCTAssertFalse(framer.isAtMessageBoundary)
    XCTAssertEqual(framer.feed(Array("}".utf8)).map(Seen.init), [.message("{}")])
    XCTAssertTrue(framer.isAtMessageBoundary)
  }

  // MARK: Headers

  func testHeaderNamesAreCaseInsensitive() {
    for name in ["content-length", "CONTENT-LENGTH", "Content-length", "cOnTeNt-LeNgTh"] {
      XCTAssertEqual(frameAll([framed("{}", header: "\(name): 2\r\n\r\n")]), [.message("{}")], name)
    }
  }

  func testContentTypeAndOtherHeadersAreAccepted() {
    let headers = [
      "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 2\r\n\r\n",
      "Content-Length: 2\r\nContent-Type: anything at all\r\n\r\n",
      "X-Custom: 1\r\ncontent-type:\r\nContent-Length:2\r\n\r\n",
      "Content-Length: \t2 \t\r\n\r\n",
      "Content-Length: 2\r\nContent-Length: 2\r\n\r\n",
    ]
    for header in headers {
      XCTAssertEqual(frameAll([framed("{}", header: header)]), [.message("{}")], header)
    }
  }

  func testBareLineFeedsAreTolerated() {
    XCTAssertEqual(
      frameAll([framed("{}", header: "Content-Length: 2\nContent-Type: x\n\n")]), [.message("{}")])
  }

  func testBlankLinesBetweenMessagesAreSkipped() {
    let bytes = framed("{}") + Array("\r\n\n\r\n".utf8) + framed("[]")
    XCTAssertEqual(frameAll([bytes]), [.message("{}"), .message("[]")])
  }

  func testEmptyBodyIsAMessage() {
    XCTAssertEqual(frameAll([framed("", header: "Content-Length: 0\r\n\r\n")]), [.message("")])
  }

  func testBodyMayContainHeaderLikeText() {
    let body = "Content-Length: 5\r\n\r\n\r\n"
    XCTAssertEqual(frameAll([framed(body) + framed("{}")]), [.message(body), .message("{}")])
  }

  // MARK: Broken headers and resynchronisation

  /// Each broken header, followed by a valid message that must come out.
  private let brokenHeaders: [(String, MessageFramer.FramingError)] = [
    ("Content-Type: x\r\n\r\n{\"a\":1}", .missingContentLength),
    ("Content-Length: -5\r\n\r\nhello", .negativeContentLength),
    ("Content-Length: abc\r\n\r\n{}", .invalidContentLength),
    ("Content-Length: 12x\r\n\r\n{}", .invalidContentLength),
    ("Content-Length: 1 2\r\n\r\n{}", .invalidContentLength),
    ("Content-Length: \r\n\r\n{}", .invalidContentLength),
    ("Content-Length: 5\rx\r\n\r\nhello", .invalidContentLength),
    ("Content-Length: 99999999999999999999999\r\n\r\n{}", .contentLengthOverflow),
    ("Content-Length 5\r\n\r\nhello", .malformedHeaderLine),
    ("Garbage\r\n\r\n", .malformedHeaderLine),
    (": 5\r\n\r\nhello", .malformedHeaderLine),
    ("Content Length: 5\r\n\r\nhello", .malformedHeaderLine),
    ("Content-Length: 5\r\nBad Header\r\n\r\nhello", .malformedHeaderLine),
    ("Content-Length: 5\r\n\rhello", .malformedHeaderLine),
    ("\r\r\n", .malformedHeaderLine),
    ("{\"jsonrpc\":\"2.0\",\"method\":\"x\"}", .malformedHeaderLine),
  ]

  func testEachBrokenHeaderIsReportedAndTheNextMessageComesOut() {
    let valid = #"{"jsonrpc":"2.0","id":7,"method":"ok"}"#
    for (broken, error) in brokenHeaders {
      assertFrames(Array(broken.utf8) + framed(valid), [.error(error), .message(valid)])
    }
  }

  func testBrokenHeaderAfterAValidMessage() {
    let bytes = framed("{}") + Array("Content-Length: -1\r\n\r\n".utf8) + framed("[]")
    assertFrames(bytes, [.message("{}"), .error(.negativeContentLength), .message("[]")])
  }

  /// Finding 1 of issue 10: the blank line's LF missing made the framer
  /// skip the next message's body by the broken header's length.
  func testBlankLineWithoutItsLineFeedLosesNoFollowingMessage() {
    let first = #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"v":2}}"#
    let second = #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"v":3}}"#
    let bytes = Array("Content-Length: \(first.utf8.count)\r\n\r\(first)".utf8) + framed(second) + framed("{}")
    assertFrames(bytes, [.error(.malformedHeaderLine), .message(second), .message("{}")])
  }

  /// A broken header's length is not trusted: its "body" is searched, and a
  /// message framed inside it is read.
  func testBrokenHeaderWithAContentLengthSkipsNothingByCount() {
    let inner = framed(#"{"id":1}"#)
    let bytes = Array("Content-Length: \(inner.count)\r\nBad Header\r\n\r\n".utf8) + inner + framed("{}")
    assertFrames(bytes, [.error(.malformedHeaderLine), .message(#"{"id":1}"#), .message("{}")])
  }

  func testGarbageRunningIntoAHeaderIsSkipped() {
    // A body of unknown length that runs straight into the next header.
    assertFrames(
      Array("X: 1\r\n\r\n{\"text\":\"abc\"}".utf8) + framed("{}"), [.error(.missingContentLength), .message("{}")])
  }

  /// The name that reveals the error may itself begin the next message.
  func testContentLengthAtTheBrokenByteIsNotSkipped() {
    assertFrames(
      Array("Content-Length: 5\r\n\rContent-Length: 2\r\n\r\n{}".utf8), [.error(.malformedHeaderLine), .message("{}")])
    assertFrames(
      Array("Content-Length: 7Content-Length: 2\r\n\r\n{}".utf8), [.error(.invalidContentLength), .message("{}")])
  }

  /// Token characters running into a header make one long header name (the
  /// tail of a body announced one byte short, here): the section then has
  /// no Content-Length, and the one inside the name begins the next message.
  func testContentLengthInsideAHeaderLineBeginsTheNextMessage() {
    assertFrames(
      Array("Content-Length: 1\r\n\r\n42Content-Length: 2\r\n\r\n{}".utf8),
      [.message("4"), .error(.missingContentLength), .message("{}")])
    assertFrames(
      Array("X-Trace: 1\r\nX: see Content-Length: 2 \r\nX-More: 3\r\n\r\n{}[]".utf8),
      [.error(.missingContentLength), .message("{}"), .error(.malformedHeaderLine)])
    // The first such line wins; a line-start Content-Length makes the rest plain headers.
    assertFrames(
      Array("aContent-Length: 2\nbContent-Length: 3\n\n{}".utf8), [.error(.missingContentLength), .message("{}")])
    assertFrames(
      Array("aContent-Length: 3\r\nContent-Length: 2\r\n\r\n{}".utf8), [.message("{}")])
  }

  /// Conflicting lengths: an error, and the later header starts the section anew.
  func testConflictingContentLengthIsReportedAndTheLaterOneWins() {
    let valid = #"{"jsonrpc":"2.0","id":7,"method":"ok"}"#
    assertFrames(
      Array("Content-Length: 99\r\nContent-Length: 2\r\n\r\n{}".utf8) + framed(valid),
      [.error(.conflictingContentLength), .message("{}"), .message(valid)])
    assertFrames(
      Array("Content-Length: 1\nContent-Length: 2\nContent-Length: 3\n\n{}]".utf8),
      [.error(.conflictingContentLength), .message("{}]")])
  }

  func testHeaderLineTooLongIsReportedAndSkipped() {
    let framer = MessageFramer(maximumHeaderLineLength: 100)
    let long = "X-Padding: " + String(repeating: "a", count: 500) + "\r\n"
    let bytes = Array((long + "Content-Length: 2\r\n\r\n{}").utf8) + framed("[]")
    // Resynchronisation finds the Content-Length after the padding.
    assertFrames(bytes, [.error(.headerLineTooLong(limit: 100)), .message("{}"), .message("[]")], framer: framer)
  }

  func testHeaderLineTooLongKeepsAContentLengthBegunInIt() {
    let framer = MessageFramer(maximumHeaderLineLength: 40)
    let bytes = Array(("X: " + String(repeating: "a", count: 30) + "Content-Length: 2\r\n\r\n{}").utf8)
    assertFrames(bytes, [.error(.headerLineTooLong(limit: 40)), .message("{}")], framer: framer)
  }

  func testManyShortHeaderLinesAreNotAnError() {
    let lines = String(repeating: "X-A: b\r\n", count: 20_000)
    XCTAssertEqual(frameAll([Array((lines + "Content-Length: 2\r\n\r\n{}").utf8)]), [.message("{}")])
    XCTAssertEqual(frameAll([Array((lines + "\r\n").utf8)]), [.error(.missingContentLength)])
  }

  func testGarbageWithoutAnyHeaderProducesOneErrorAndNoHang() {
    var garbage = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
    garbage[0] = UInt8(ascii: "{")
    XCTAssertEqual(frameAll([garbage]), [.error(.malformedHeaderLine)])
    XCTAssertEqual(
      frameAll([garbage + framed("{}")]), [.error(.malformedHeaderLine), .message("{}")])
  }

  /// One error per broken stretch, however many broken names it holds.
  func testBrokenNamesWhileResynchronisingAreNotReportedAgain() {
    let noise = String(repeating: "Content-Length: x\r\n\r\nContent-Length\r\ncontent-length: -1\n\n", count: 50)
    assertFrames(Array(noise.utf8) + framed("{}"), [.error(.invalidContentLength), .message("{}")])
  }

  func testRandomBytesNeverCrashAndAValidMessageStillComesOut() {
    var generator = SeededGenerator(seed: 10)
    for round in 0..<300 {
      let length = Int.random(in: 0..<300, using: &generator)
      let noise = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let seen = frameAll([noise + Array("\r\n\r\n".utf8) + framed("{\"ok\":\(round)}")])
      XCTAssertEqual(seen.last, .message("{\"ok\":\(round)}"), "round \(round): \(noise)")
    }
  }

  // MARK: The framer against the model

  /// Random inputs built from the pieces framing is made of (names in any
  /// case, digits, separators, line breaks, valid frames, garbage), framed
  /// whole and in random chunks, against `FramingModel`.
  func testRandomInputsFrameAsTheModelSays() {
    var generator = SeededGenerator(seed: 42)
    let pieces: [[UInt8]] = [
      "Content-Length", "content-length", "CONTENT-LENGTH", "Content-Lengt", "Content-Type", "X",
      ":", ": ", " ", "\t", "\r\n", "\n", "\r", "\r\n\r\n", "0", "1", "2", "3", "12", "-", "99999999999999999999",
      "{}", "\"", "a", "}",
    ].map { Array($0.utf8) }
    var compared = 0
    for round in 0..<4000 {
      var input: [UInt8] = []
      for _ in 0..<Int.random(in: 1...24, using: &generator) {
        switch Int.random(in: 0..<10, using: &generator) {
        case 0:
          let body = (0..<Int.random(in: 0...6, using: &generator)).map { _ in UInt8(ascii: "a") }
          input += Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
        case 1:
          input.append(UInt8.random(in: 0...255, using: &generator))
        default:
          input += pieces.randomElement(using: &generator)!
        }
      }
      let lineLimit = [32, 40, 64 << 10].randomElement(using: &generator)!
      let messageLimit = [3, 1000].randomElement(using: &generator)!
      let framer = MessageFramer(maximumMessageSize: messageLimit, maximumHeaderLineLength: lineLimit)
      let expected = FramingModel.frame(input, lineLimit: lineLimit, messageLimit: messageLimit)
      let shown = String(decoding: input, as: UTF8.self).debugDescription
      let whole = modelEvents(frameAll([input], framer: framer))
      guard whole == expected else {
        return XCTFail("round \(round), limits \(lineLimit)/\(messageLimit): \(whole) ≠ model \(expected) for \(shown)")
      }
      var chunks: [[UInt8]] = []
      var rest = input[...]
      while !rest.isEmpty {
        let take = Int.random(in: 1...max(1, rest.count), using: &generator)
        chunks.append(Array(rest.prefix(take)))
        rest = rest.dropFirst(take)
      }
      XCTAssertEqual(modelEvents(frameAll(chunks, framer: framer)), expected, "round \(round) in chunks: \(shown)")
      compared += 1
    }
    XCTAssertEqual(compared, 4000)
  }

  // MARK: Size limits

  func testOversizedBodyIsSkippedAndTheNextMessageIsIntact() {
    let framer = MessageFramer(maximumMessageSize: 10)
    let big = String(repeating: "z", count: 100)
    assertFrames(framed(big) + framed("{\"n\":1}"), [.oversized(100), .message("{\"n\":1}")], framer: framer)
  }

  /// Finding 2 of issue 10: after an absurd length the daemon answered
  /// nothing ever again, waiting for 10^15 bytes.
  func testAfterAnAbsurdLengthTheNextHeaderIsRead() {
    let framer = MessageFramer(maximumMessageSize: 1000)
    let bytes = Array("Content-Length: 1000000000000000\r\n\r\n".utf8) + framed("{\"n\":1}") + framed("[]")
    assertFrames(bytes, [.oversized(1_000_000_000_000_000), .message("{\"n\":1}"), .message("[]")], framer: framer)
    // Also when the oversized message's bytes do come, up to the next header.
    let body = String(repeating: "content-length x ", count: 200)
    assertFrames(
      framed(body) + framed("{}"), [.oversized(body.utf8.count), .message("{}")],
      framer: MessageFramer(maximumMessageSize: 100))
  }

  func testBodyOfAnAcceptableLengthIsNeverSearched() {
    let inner = "Content-Length: 2\r\n\r\n{}"
    assertFrames(framed(inner + inner) + framed("[]"), [.message(inner + inner), .message("[]")])
  }

  func testOversizedBodyIsNotBuffered() {
    var framer = MessageFramer(maximumMessageSize: 10)
    let events = framer.feed(Array("Content-Length: 1000000000000000\r\n\r\n".utf8))
    XCTAssertEqual(events.map(Seen.init), [.oversized(1_000_000_000_000_000)])
    for _ in 0..<64 {
      XCTAssertTrue(framer.feed([UInt8](repeating: 0x41, count: 1 << 16)).isEmpty)
      XCTAssertEqual(framer.bufferedBodyCapacity, 0)
    }
    XCTAssertNil(framer.finish(), "the oversized message was already reported")
  }

  func testAnnouncedLengthDoesNotReserveMemory() {
    var framer = MessageFramer(maximumMessageSize: 1 << 40)
    XCTAssertTrue(framer.feed(Array("Content-Length: 1000000000000\r\n\r\nabc".utf8)).isEmpty)
    XCTAssertLessThan(framer.bufferedBodyCapacity, 2 * framer.chunkCapacity)
    XCTAssertEqual(
      framer.finish().map(Seen.init),
      .error(.truncatedBody(expected: 1_000_000_000_000, received: 3)))
  }

  func testLargeBodyArrivesInBoundedChunks() {
    var framer = MessageFramer(chunkCapacity: 1000)
    let body = [UInt8](repeating: UInt8(ascii: "a"), count: 10_500)
    var events: [MessageFramer.Event] = []
    let bytes = Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
    for start in stride(from: 0, to: bytes.count, by: 333) {
      events += framer.feed(Array(bytes[start..<min(start + 333, bytes.count)]))
      XCTAssertLessThanOrEqual(framer.bufferedBodyCapacity, 2 * (start + 333) + 1000)
    }
    guard events.count == 1, case .message(let message) = events[0] else {
      return XCTFail("expected one message, got \(events.count) events")
    }
    XCTAssertEqual(message.count, body.count)
    XCTAssertEqual(message.bytes, body)
  }

  // MARK: End of input

  func testTruncatedBodyAtEndOfInput() {
    XCTAssertEqual(
      frameAll([Array("Content-Length: 10\r\n\r\n{\"a\"".utf8)]),
      [.error(.truncatedBody(expected: 10, received: 4))])
  }

  func testTruncatedHeaderAtEndOfInput() {
    XCTAssertEqual(frameAll([Array("Content-Length: 10\r\n".utf8)]), [.error(.truncatedHeader)])
    XCTAssertEqual(frameAll([Array("Content-Le".utf8)]), [.error(.truncatedHeader)])
  }

  func testCleanEndOfInputReportsNothing() {
    XCTAssertEqual(frameAll([framed("{}") + Array("\r\n".utf8)]), [.message("{}")])
    XCTAssertEqual(frameAll([]), [])
  }
}
