import XCTest

@testable import JSONRPC

#if canImport(Glibc)
  import Glibc
#endif

/// jansson's allocator (`JanssonMemory`): large blocks mapped on their own,
/// on a huge-page boundary, advised for huge pages; small ones from malloc;
/// either way the values decode and encode as before.
final class JanssonMemoryTests: XCTestCase {
  private func decodeLong(_ text: String) throws -> LongString {
    let decoded = try JSONValue(decoding: JSONValue.string(text).encoded())
    guard case .longString(let long) = decoded else {
      throw XCTSkip("expected a long string, got \(decoded.typeName)")
    }
    return long
  }

  func testALargeStringIsMappedOnAHugePageBoundary() throws {
    let text = String(repeating: "ab ب😀\n\"\\", count: (3 * JanssonMemory.hugePageSize) / 12)
    let long = try decodeLong(text)
    XCTAssertEqual(long.string, text)
    let base = try XCTUnwrap(long.withUTF8 { $0.baseAddress })
    XCTAssertTrue(JanssonMemory.isMapped(base))
    // On a huge-page boundary (its header in the page before).
    XCTAssertEqual(Int(bitPattern: base) % JanssonMemory.hugePageSize, 0)
    XCTAssertEqual(try JSONValue(decoding: JSONValue.string(text).encoded()), .string(text))
    #if os(Linux)
      // Advised for huge pages wherever the kernel has them.
      if access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0 {
        XCTAssertEqual(Self.vmFlags(containing: Int(bitPattern: base))?.contains("hg"), true)
      }
    #endif
  }

  func testSmallAndMediumStringsComeFromMalloc() throws {
    for count in [LongString.minimumCount, JanssonMemory.mappedSize / 2 - 64] {
      let text = String(repeating: "x", count: count)
      let long = try decodeLong(text)
      let base = try XCTUnwrap(long.withUTF8 { $0.baseAddress })
      XCTAssertFalse(JanssonMemory.isMapped(base), "\(count)")
      XCTAssertEqual(long.string, text)
    }
  }

  func testManyLargeValuesDecodeEncodeAndAreFreed() throws {
    // Sizes around the mapped threshold and the huge page, each decoded,
    // encoded back and released.
    let huge = JanssonMemory.hugePageSize
    for count in [huge - 17, huge - 16, huge - 15, huge, huge + 1, 2 * huge + 5, 5 * huge / 2] {
      let text = String(repeating: "é", count: count / 2)
      let value: JSONValue = ["a": .string(text), "b": [1, 2.5, .string(text)]]
      let decoded = try JSONValue(decoding: value.encoded())
      XCTAssertEqual(decoded, value, "\(count)")
      XCTAssertEqual(decoded.encoded(), value.encoded(), "\(count)")
    }
  }

  func testWhileADecodeRunsTheLastLargeBlockFreedIsKeptAndGrown() throws {
    let huge = JanssonMemory.hugePageSize
    let small = String(repeating: "ab\n", count: 5 * huge / 3)
    let large = String(repeating: "ש\"x", count: 7 * huge / 4)
    // Outside a decode nothing is kept: the daemon's memory after a
    // message is what it was without the reuse.
    XCTAssertEqual(try JSONValue(decoding: JSONValue.string(small).encoded()), .string(small))
    XCTAssertEqual(JanssonMemory.spareLength, 0)
    let long: LongString? = try JanssonMemory.decoding {
      // Decoding a string of 5 huge pages (7 escaped) leaves jansson's last
      // buffer (8 huge pages, the one it read the escaped string into)
      // kept, behind its header's page, while the outer decode runs; a
      // larger string then grows it in place of a new mapping.
      XCTAssertEqual(try JSONValue(decoding: JSONValue.string(small).encoded()), .string(small))
      XCTAssertEqual(JanssonMemory.spareLength, 8 * huge + 4096)
      let long = try? decodeLong(large)
      XCTAssertGreaterThan(JanssonMemory.spareLength, 0)
      return long
    }
    XCTAssertEqual(JanssonMemory.spareLength, 0)
    let decoded = try XCTUnwrap(long)
    XCTAssertEqual(decoded.string, large)
    let base = try XCTUnwrap(decoded.withUTF8 { $0.baseAddress })
    XCTAssertEqual(Int(bitPattern: base) % huge, 0)
    #if os(Linux)
      if access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0 {
        XCTAssertEqual(Self.vmFlags(containing: Int(bitPattern: base))?.contains("hg"), true)
      }
    #endif
    // The trim gives a kept block back too.
    try JanssonMemory.decoding {
      XCTAssertEqual(try JSONValue(decoding: JSONValue.string(small).encoded()), .string(small))
      XCTAssertGreaterThan(JanssonMemory.spareLength, 0)
      MemoryTrim.trim()
      XCTAssertEqual(JanssonMemory.spareLength, 0)
    }
  }

  #if os(Linux)
    /// The `VmFlags` of the mapping that holds `address` (/proc/self/smaps).
    private static func vmFlags(containing address: Int) -> String? {
      guard let file = fopen("/proc/self/smaps", "r") else { return nil }
      defer { fclose(file) }
      var inside = false
      var line = [CChar](repeating: 0, count: 4096)
      while fgets(&line, Int32(line.count), file) != nil {
        let text = String(cString: line)
        let fields = text.split(separator: " ", maxSplits: 1)
        if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
          let bounds = range.split(separator: "-").compactMap { Int($0, radix: 16) }
          inside = bounds.count == 2 && bounds[0] <= address && address < bounds[1]
        } else if inside && text.hasPrefix("VmFlags:") {
          return text
        }
      }
      return nil
    }
  #endif
}
