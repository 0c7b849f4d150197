import Foundation
import XCTest

/// Checks that the committed joining tables are what
/// scripts/generate-arabic-shaping-tables.py makes from the Unicode 17.0.0
/// files: from ArabicShaping.txt 17.0.0 where it is at hand, else (CI
/// machines, whose UCD directory lacks it) from Debian's 15.0.0 file and
/// the committed lines that 17.0.0 changed — and then, where both files
/// are at hand, that those lines are exactly the difference.
final class GeneratedShapingTablesTests: XCTestCase {
  static let script = "scripts/generate-arabic-shaping-tables.py"
  static let outputs = [
    "arabic_shaping_tables.c": "Sources/CArabicShapingData/arabic_shaping_tables.c",
    "CArabicShapingData.h": "Sources/CArabicShapingData/include/CArabicShapingData.h",
  ]
  /// Tests/ArabicShapingTests/GeneratedShapingTablesTests.swift → the package.
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let debianUCD = "/usr/share/unicode"

  /// `$BIDI_UCD_DIR`, else ../shared/ucd/17.0.0 beside the package, when it
  /// holds UnicodeData.txt.
  static func ucdDirectory() -> URL? {
    var candidates: [URL] = []
    if let variable = ProcessInfo.processInfo.environment["BIDI_UCD_DIR"], !variable.isEmpty {
      candidates.append(URL(fileURLWithPath: variable))
    }
    candidates.append(packageRoot.appendingPathComponent("../shared/ucd/17.0.0").standardizedFileURL)
    return candidates.first {
      FileManager.default.fileExists(atPath: $0.appendingPathComponent("UnicodeData.txt").path)
    }
  }

  static func firstLine(_ path: String) -> String {
    guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
    defer { try? handle.close() }
    let head = (try? handle.read(upToCount: 64)) ?? Data()
    return String(decoding: head, as: UTF8.self).components(separatedBy: "\n")[0]
  }

  func run(_ arguments: [String]) throws -> (status: Int32, output: Data, errors: String) {
    let python = ["/usr/bin/python3", "/usr/local/bin/python3", "/bin/python3"]
      .first { FileManager.default.isExecutableFile(atPath: $0) }
    guard let python else { throw XCTSkip("python3 not found: cannot run \(Self.script)") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [Self.packageRoot.appendingPathComponent(Self.script).path] + arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let message = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, data, String(decoding: message, as: UTF8.self))
  }

  func testGeneratedTablesAreUpToDate() throws {
    guard let ucd = Self.ucdDirectory() else {
      throw XCTSkip("no UnicodeData.txt 17.0.0: cannot check that the joining tables are up to date")
    }
    let full = Self.firstLine(ucd.appendingPathComponent("ArabicShaping.txt").path) == "# ArabicShaping-17.0.0.txt"
    let fallback = Self.firstLine(Self.debianUCD + "/ArabicShaping.txt") == "# ArabicShaping-15.0.0.txt"
    guard full || fallback else {
      throw XCTSkip("neither ArabicShaping.txt 17.0.0 in \(ucd.path) nor 15.0.0 in \(Self.debianUCD)")
    }
    for (name, path) in Self.outputs.sorted(by: { $0.key < $1.key }) {
      let result = try run([ucd.path, "--stdout", name])
      XCTAssertEqual(result.status, 0, result.errors)
      // Which ArabicShaping.txt was read is said on stderr.
      XCTAssert(
        result.errors.contains(full ? "(17.0.0)" : "(15.0.0) and scripts/arabic-shaping-15-to-17.txt"), result.errors)
      let committed = try Data(contentsOf: Self.packageRoot.appendingPathComponent(path))
      XCTAssertFalse(result.output.isEmpty)
      XCTAssert(result.output == committed, "\(path) is out of date: run python3 \(Self.script)")
    }
    if full && fallback {
      let delta = try run([ucd.path, "--check-delta"])
      XCTAssertEqual(delta.status, 0, delta.errors)
    } else {
      print(
        "GeneratedShapingTablesTests: only ArabicShaping.txt \(full ? "17.0.0" : "15.0.0") at hand; "
          + "the tables were regenerated from it\(full ? "" : " and the 17.0.0 lines"), not the lines checked")
    }
  }
}
