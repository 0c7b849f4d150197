import JSONRPC
import XCTest

/// `MemoryPipe`, the transport of a server run in process: bytes in order,
/// nothing lost across small reads of large writes, the end after `close`.
final class MemoryPipeTests: XCTestCase {
  private func read(_ pipe: MemoryPipe, _ size: Int) -> ReadOutcome? {
    var buffer = [UInt8](repeating: 0, count: size)
    let outcome = buffer.withUnsafeMutableBytes { pipe.read(into: $0, timeoutMilliseconds: 0) }
    if case .bytes(let count)? = outcome { received += buffer[0..<count] }
    return outcome
  }

  private var received: [UInt8] = []

  func testLargeAndSmallWritesReadInPiecesArriveWholeAndInOrder() {
    let pipe = MemoryPipe()
    var sent: [UInt8] = []
    var random = SystemRandomNumberGenerator()
    for round in 0..<20 {
      // A write of several MiB read in pieces of various sizes, with small
      // writes landing while it is being read.
      let large = (0..<((3 << 20) + round * 1_000)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ round) }
      XCTAssertTrue(pipe.write(large))
      sent += large
      while received.count < sent.count {
        let piece = [1, 7, 4096, 1 << 20, (1 << 20) + 3][Int.random(in: 0..<5, using: &random)]
        guard case .bytes = read(pipe, piece) else { return XCTFail("nothing to read at \(received.count)") }
        if Int.random(in: 0..<50, using: &random) == 0 {
          let small: [UInt8] = [UInt8(round), 0xFF, UInt8(received.count & 0xFF)]
          XCTAssertTrue(pipe.write(small))
          sent += small
        }
      }
    }
    XCTAssertEqual(received.count, sent.count)
    XCTAssertTrue(received == sent, "the bytes arrive in the order written")
    XCTAssertNil(read(pipe, 16), "nothing more within the timeout")
  }

  func testCloseEndsTheInputAfterWhatIsLeftAndRefusesWrites() {
    let pipe = MemoryPipe()
    XCTAssertTrue(pipe.write(Array("left".utf8)))
    pipe.close()
    XCTAssertFalse(pipe.write(Array("late".utf8)), "a closed pipe takes nothing")
    XCTAssertEqual(read(pipe, 2), .bytes(2))
    XCTAssertEqual(read(pipe, 16), .bytes(2))
    XCTAssertEqual(String(decoding: received, as: UTF8.self), "left")
    XCTAssertEqual(read(pipe, 16), .endOfInput)
  }
}
