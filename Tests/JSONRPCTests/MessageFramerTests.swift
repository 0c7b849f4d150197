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
    ("Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", .conflictingContentLength),
    ("Content-Length 5\r\n\r\nhello", .malformedHeaderLine),
    ("Garbage\r\n\r\n", .malformedHeaderLine),
    (": 5\r\n\r\nhello", .malformedHeaderLine),
    ("Content Length: 5\r\n\r\nhello", .malformedHeaderLine),
    ("Content-Length: 5\r\nBad Header\r\n\r\nhello", .malformedHeaderLine),
    ("\r\r\n", .malformedHeaderLine),
    ("{\"jsonrpc\":\"2.0\",\"method\":\"x\"}", .malformedHeaderLine),
  ]

  func testEachBrokenHeaderIsReportedAndTheNextMessageComesOut() {
    let valid = #"{"jsonrpc":"2.0","id":7,"method":"ok"}"#
    for (broken, error) in brokenHeaders {
      let bytes = Array(broken.utf8) + framed(valid)
      let expected: [Seen] = [.error(error), .message(valid)]
      XCTAssertEqual(frameAll([bytes]), expected, broken.debugDescription)
      XCTAssertEqual(
        frameAll(bytes.map { [$0] }), expected, "byte by byte: \(broken.debugDescription)")
    }
  }

  func testBrokenHeaderAfterAValidMessage() {
    let bytes = framed("{}") + Array("Content-Length: -1\r\n\r\n".utf8) + framed("[]")
    XCTAssertEqual(
      frameAll([bytes]), [.message("{}"), .error(.negativeContentLength), .message("[]")])
  }

  func testGarbageRunningIntoAHeaderIsSkipped() {
    // A body of unknown length that runs straight into the next header.
    let bytes = Array("X: 1\r\n\r\n{\"text\":\"abc\"}".utf8) + framed("{}")
    XCTAssertEqual(frameAll([bytes]), [.error(.missingContentLength), .message("{}")])
  }

  func testHeaderTooLongIsReportedAndSkipped() {
    let framer = MessageFramer(maximumHeaderSize: 100)
    let long = "X-Padding: " + String(repeating: "a", count: 500) + "\r\n"
    let bytes = Array((long + "Content-Length: 2\r\n\r\n{}").utf8) + framed("[]")
    // Resynchronisation finds the Content-Length after the padding.
    XCTAssertEqual(
      frameAll([bytes], framer: framer),
      [.error(.headerTooLong(limit: 100)), .message("{}"), .message("[]")])
  }

  func testGarbageWithoutAnyHeaderProducesOneErrorAndNoHang() {
    var garbage = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
    garbage[0] = UInt8(ascii: "{")
    XCTAssertEqual(frameAll([garbage]), [.error(.malformedHeaderLine)])
    XCTAssertEqual(
      frameAll([garbage + framed("{}")]), [.error(.malformedHeaderLine), .message("{}")])
  }

  func testRandomBytesNeverCrashAndAValidMessageStillComesOut() {
    var generator = SystemRandomNumberGenerator()
    for round in 0..<200 {
      let length = Int.random(in: 0..<300, using: &generator)
      let noise = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
      // An error, if any, resynchronises on the next "Content-Length".
      let seen = frameAll([noise + Array("\r\n\r\n".utf8) + framed("{\"ok\":\(round)}")])
      XCTAssertEqual(seen.last, .message("{\"ok\":\(round)}"), "round \(round): \(noise)")
    }
  }

  // MARK: Size limits

  func testOversizedBodyIsSkippedAndTheNextMessageIsIntact() {
    let framer = MessageFramer(maximumMessageSize: 10)
    let big = String(repeating: "z", count: 100)
    let bytes = framed(big) + framed("{\"n\":1}")
    let expected: [Seen] = [.oversized(100), .message("{\"n\":1}")]
    XCTAssertEqual(frameAll([bytes], framer: framer), expected)
    XCTAssertEqual(frameAll(bytes.map { [$0] }, framer: framer), expected)
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
