import BidiTestSupport
import JSONRPC
import Synchronization
import XCTest

/// Input handed to the connection in the pieces a test chose, then the end.
private final class PiecesSource: ByteSource, @unchecked Sendable {
  private let pieces = Mutex<[[UInt8]]>([])

  init(_ bytes: [UInt8], cuts: [Int]) {
    var pieces: [[UInt8]] = []
    var start = 0
    for cut in cuts.sorted() + [bytes.count] where cut > start && cut <= bytes.count {
      pieces.append(Array(bytes[start..<cut]))
      start = cut
    }
    self.pieces.withLock { $0 = pieces }
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadOutcome {
    pieces.withLock { pieces in
      guard !pieces.isEmpty else { return .endOfInput }
      let take = min(buffer.count, pieces[0].count)
      pieces[0].withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[0..<take])) }
      pieces[0].removeFirst(take)
      if pieces[0].isEmpty { pieces.removeFirst() }
      return .bytes(take)
    }
  }
}

/// Output kept in memory.
private final class CollectingSink: ByteSink, @unchecked Sendable {
  let bytes = Mutex<[UInt8]>([])
  func write(_ written: UnsafeRawBufferPointer) -> String? {
    bytes.withLock { $0.append(contentsOf: written) }
    return nil
  }
}

/// Records `append` notifications; `get` answers what was appended.
private final class RecordingHandler: MessageHandler, @unchecked Sendable {
  var values: [JSONValue] = []
  func handle(request: Request, context: RequestContext, result: inout JSONWriter) throws(ResponseError) {
    guard request.method == "get" else { throw .methodNotFound(request.method) }
    result.value(.array(values))
  }
  func handle(notification: JSONRPC.Notification, connection: Connection) {
    if notification.method == "append" { values.append(notification.params?["value"] ?? .null) }
  }
}

/// The connection decodes each body while it arrives (the framer stops
/// where a body begins; jansson pulls its bytes from the read buffer, which
/// is refilled from the input): however the input is cut into reads, the
/// messages, the errors for malformed bodies and the framing error for a
/// body cut short by the end of input are the same, and hand-written here.
final class StreamedBodyTests: XCTestCase {
  /// Serves `bytes` delivered in pieces cut at `cuts`, to the end of input;
  /// returns what the connection wrote, decoded.
  private func serve(_ bytes: [UInt8], cuts: [Int], readSize: Int = 4096) throws -> [JSONValue] {
    let sink = CollectingSink()
    let connection = Connection(
      input: PiecesSource(bytes, cuts: cuts), output: sink, options: Connection.Options(readSize: readSize),
      logger: Logger.disabled())
    XCTAssertEqual(connection.run(RecordingHandler()), .endOfInput)
    var framer = MessageFramer()
    var messages: [JSONValue] = []
    for event in framer.feed(sink.bytes.withLock { $0 }) {
      guard case .message(let body) = event else {
        XCTFail("the connection wrote a broken frame: \(event)")
        continue
      }
      messages.append(try JSONValue(decoding: body))
    }
    return messages
  }

  private func frame(_ text: String) -> [UInt8] { MessageWriter.frame(Array(text.utf8)) }

  /// Good messages, bodies that are not JSON (at their start, in their
  /// middle, after a whole value, cut short inside the announced length),
  /// an empty body, and a request answering what the notifications added.
  private var mixed: [UInt8] {
    frame(#"{"jsonrpc":"2.0","method":"append","params":{"value":"one"}}"#)
      + frame("{not json")
      + frame(#"{"jsonrpc":"2.0","method":"append","params":{"value":[1,2,{"k":"שלום"}]}}"#)
      + frame(#"{"jsonrpc":"2.0","method":"append","params":{"value":tru}}"#)
      + frame(#"{"jsonrpc":"2.0","method":"append","params":{"value":1}} x"#)
      + Array("Content-Length: 5\r\n\r\n{\"a\":".utf8)
      + Array("Content-Length: 0\r\n\r\n".utf8)
      + frame(#"{"jsonrpc":"2.0","method":"append","params":{"value":"😀"}}"#)
      + frame(#"{"jsonrpc":"2.0","id":1,"method":"get"}"#)
  }

  private func assertMixed(_ output: [JSONValue], _ what: String) {
    let codes = output.map { $0["error"]?["code"]?.intValue }
    XCTAssertEqual(codes, [-32700, -32700, -32700, -32700, -32700, nil], what)
    XCTAssertEqual(output.last?["result"], ["one", [1, 2, ["k": "שלום"]], "😀"], what)
    let messages = output.compactMap { $0["error"]?["message"]?.stringValue }
    XCTAssertTrue(messages.allSatisfy { $0.hasPrefix("Parse error: ") }, "\(messages) \(what)")
  }

  func testMessagesCutAtEveryByteBoundary() throws {
    let bytes = mixed
    assertMixed(try serve(bytes, cuts: []), "in one read")
    for cut in 1..<bytes.count {
      assertMixed(try serve(bytes, cuts: [cut]), "cut at \(cut)")
    }
    assertMixed(try serve(bytes, cuts: Array(1..<bytes.count)), "one byte a read")
  }

  func testRandomCutsOfALargeBody() throws {
    var random = SeededGenerator(seed: 29)
    let text = String(repeating: "שלום abc 😀 \\\"x\\\" ", count: 8_000)
    let large = frame(#"{"jsonrpc":"2.0","method":"append","params":{"value":"\#(text)"}}"#)
    let bytes =
      frame(#"{"jsonrpc":"2.0","method":"append","params":{"value":"one"}}"#) + large + large
      + frame(#"{"jsonrpc":"2.0","id":1,"method":"get"}"#)
    let expected = String(repeating: "שלום abc 😀 \"x\" ", count: 8_000)
    for round in 0..<6 {
      let cuts = (0..<Int.random(in: 1...200, using: &random)).map { _ in
        Int.random(in: 1..<bytes.count, using: &random)
      }
      let output = try serve(bytes, cuts: cuts, readSize: round.isMultiple(of: 2) ? 4096 : 1 << 20)
      XCTAssertEqual(output.count, 1, "round \(round)")
      XCTAssertEqual(output.first?["result"], ["one", .string(expected), .string(expected)], "round \(round)")
    }
  }

  /// A body that is not JSON from its first bytes, larger than a read: the
  /// rest of it is skipped read by read, and the next message is served.
  func testMalformedLargeBodyIsSkippedToTheNextMessage() throws {
    let broken = frame("{x" + String(repeating: "y", count: 20_000) + "}")
    let bytes =
      broken + frame(#"{"jsonrpc":"2.0","method":"append","params":{"value":2}}"#)
      + frame(#"{"jsonrpc":"2.0","id":1,"method":"get"}"#)
    for cuts in [[], [100], Array(stride(from: 7, to: bytes.count, by: 997))] {
      let output = try serve(bytes, cuts: cuts)
      XCTAssertEqual(output.map { $0["error"]?["code"]?.intValue }, [-32700, nil], "cuts \(cuts)")
      XCTAssertEqual(output.last?["result"], [2], "cuts \(cuts)")
    }
  }

  /// The input ends inside a body, after each possible number of its
  /// bytes: one framing error naming how many arrived, after the answers
  /// to what came before; whether the bytes came in one read or one by one.
  func testBodyCutShortByTheEndOfInput() throws {
    let body = Array(#"{"jsonrpc":"2.0","id":2,"method":"get","params":{}}"#.utf8)
    let before =
      frame(#"{"jsonrpc":"2.0","method":"append","params":{"value":"a"}}"#)
      + frame(#"{"jsonrpc":"2.0","id":1,"method":"get"}"#)
    let header = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
    for received in 0..<body.count {
      let bytes = before + header + body.prefix(received)
      for cuts in [[], Array(1..<bytes.count)] {
        let output = try serve(bytes, cuts: cuts)
        let what = "\(received) bytes, \(cuts.count + 1) reads"
        XCTAssertEqual(output.count, 2, what)
        XCTAssertEqual(output.first?["result"], ["a"], what)
        XCTAssertEqual(output.last?["error"]?["code"], -32700, what)
        XCTAssertEqual(output.last?["id"], .null, what)
        XCTAssertEqual(
          output.last?["error"]?["message"]?.stringValue,
          "Invalid message framing: input ended after \(received) of \(body.count) body bytes", what)
      }
    }
  }

  /// A huge announced length is refused from its header, before any of
  /// its bytes is read or memory reserved for it; the next message is served.
  func testHugeLengthIsRefusedAndTheNextMessageServed() throws {
    let bytes =
      Array("Content-Length: 99999999999\r\n\r\n{\"jsonrpc\":".utf8)
      + frame(#"{"jsonrpc":"2.0","id":1,"method":"get"}"#)
    for cuts in [[], Array(1..<bytes.count)] {
      let output = try serve(bytes, cuts: cuts)
      XCTAssertEqual(output.map { $0["error"]?["code"]?.intValue }, [-32600, nil], "\(cuts.count)")
      XCTAssertEqual(output.last?["result"], [], "\(cuts.count)")
      XCTAssertTrue(
        output.first?["error"]?["message"]?.stringValue?.hasPrefix("Message too large: 99999999999 bytes") ?? false,
        "\(output)")
    }
  }
}
