import Foundation
import JSONRPC
import XCTest

final class LoggerTests: XCTestCase {
  private func temporaryPath() -> String {
    NSTemporaryDirectory() + "/bidi-logger-\(UUID().uuidString).log"
  }

  func testLevelsAreFilteredAndLinesAppended() throws {
    let path = temporaryPath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
      let logger = try Logger(level: .info, path: path)
      logger.error("first")
      logger.warning("second")
      logger.info("third")
      logger.debug("hidden")
      logger.trace("hidden too")
      XCTAssertTrue(logger.isEnabled(.info))
      XCTAssertFalse(logger.isEnabled(.debug))
    }
    try Logger(level: .error, path: path).error("appended")
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
    XCTAssertEqual(lines.count, 4)
    XCTAssertTrue(lines[0].hasSuffix(" error: first"), String(lines[0]))
    XCTAssertTrue(lines[1].hasSuffix(" warning: second"))
    XCTAssertTrue(lines[2].hasSuffix(" info: third"))
    XCTAssertTrue(lines[3].hasSuffix(" error: appended"))
    // 2025-05-01T12:34:56.789Z
    XCTAssertNotNil(
      lines[0].range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z "#, options: .regularExpression))
  }

  func testUnopenableFileIsAnError() {
    XCTAssertThrowsError(try Logger(path: "/nonexistent-directory/x.log"))
  }

  func testLevelNames() {
    XCTAssertEqual(Logger.Level("WARN"), .warning)
    XCTAssertEqual(Logger.Level("warning"), .warning)
    XCTAssertEqual(Logger.Level("trace"), .trace)
    XCTAssertNil(Logger.Level("verbose"))
    XCTAssertLessThan(Logger.Level.error, .debug)
  }

  func testDisabledLoggerWritesNothing() {
    XCTAssertFalse(Logger.disabled().isEnabled(.error))
  }
}
