import XCTest

@testable import JSONRPC

final class MemoryTrimTests: XCTestCase {
  /// Free pages below a block still in use can only go back to the system
  /// by malloc_trim: `trim` must reach it (a `dlsym` look-up did not, in a
  /// static executable, and the daemon stayed at its peak size).
  func testTrimGivesFreePagesBack() {
    var blocks: [UnsafeMutableRawPointer] = []
    for _ in 0..<20_000 {
      let block = UnsafeMutableRawPointer.allocate(byteCount: 1000, alignment: 8)
      block.storeBytes(of: 1, as: UInt8.self)
      blocks.append(block)
    }
    let last = blocks.removeLast()
    for block in blocks { block.deallocate() }
    XCTAssertTrue(MemoryTrim.trim(), "20 MB freed below a live block, and nothing given back")
    last.deallocate()
  }
}
