import Foundation
import XCTest

/// Checks that the committed tables are what the generator makes from the
/// Unicode 17.0.0 files.
final class GeneratedTablesTests: XCTestCase {
  static let script = "scripts/generate-unicode-tables.py"
  static let outputs = [
    "bidi_tables.c": "Sources/CUnicodeBidiData/bidi_tables.c",
    "CUnicodeBidiData.h": "Sources/CUnicodeBidiData/include/CUnicodeBidiData.h",
  ]

  func testGeneratedTablesAreUpToDate() throws {
    guard let ucd = UCDDirectory.unicode17() else {
      throw XCTSkip(
        "Unicode 17.0.0 DerivedBidiClass.txt not found in \(UCDDirectory.searchedPaths): "
          + "cannot check that the generated tables are up to date")
    }
    let python = ["/usr/bin/python3", "/usr/local/bin/python3", "/bin/python3"]
      .first { FileManager.default.isExecutableFile(atPath: $0) }
    guard let python else {
      throw XCTSkip("python3 not found: cannot check that the generated tables are up to date")
    }
    let root = UCDDirectory.packageRoot
    for (name, path) in Self.outputs.sorted(by: { $0.key < $1.key }) {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: python)
      process.arguments = [root.appendingPathComponent(Self.script).path, ucd.path, "--stdout", name]
      let output = Pipe()
      let errors = Pipe()
      process.standardOutput = output
      process.standardError = errors
      try process.run()
      let generated = output.fileHandleForReading.readDataToEndOfFile()
      let message = errors.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      XCTAssertEqual(
        process.terminationStatus, 0,
        "\(Self.script) failed: \(String(decoding: message, as: UTF8.self))")
      let committed = try Data(contentsOf: root.appendingPathComponent(path))
      XCTAssertFalse(generated.isEmpty, "\(Self.script) printed nothing for \(name)")
      XCTAssert(
        generated == committed,
        "\(path) is out of date: run python3 \(Self.script) \(ucd.path)")
    }
  }
}
