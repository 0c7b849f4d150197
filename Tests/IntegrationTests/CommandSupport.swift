import BidiTestSupport
import Foundation
import JSONRPC
import XCTest

// Helpers of the command-line tests (`check`, `visual`): a runner of the
// built `bidi-lsp` and a scratch directory.

/// Runs the built `bidi-lsp` with arguments, standard input and a working
/// directory (through `TestClient.run`), its stdout as `Data`.
enum HazardCommand {
  struct Result {
    var status: Int32
    var output: Data
    var errorOutput: String
    var text: String { String(decoding: output, as: UTF8.self) }
    /// Output lines (without the last empty one after a final newline).
    var lines: [String] {
      var lines = text.components(separatedBy: "\n")
      if lines.last == "" { lines.removeLast() }
      return lines
    }
  }

  static func run(_ arguments: [String], input: Data = Data(), in directory: URL? = nil, timeout: Double = 120) throws
    -> Result
  {
    let result = try TestClient.run(
      try builtDaemonPath(), arguments: arguments, input: Array(input), in: directory?.path, timeout: timeout)
    return Result(status: result.status, output: Data(result.standardOutputBytes), errorOutput: result.standardError)
  }
}

/// A temporary directory, removed when released.
final class HazardScratch {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("bidi-hazard-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  /// Writes `bytes` at `path` (relative), creating folders.
  @discardableResult
  func write(_ path: String, _ bytes: [UInt8]) throws -> URL {
    let file = url.appendingPathComponent(path)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(bytes).write(to: file)
    return file
  }

  @discardableResult
  func write(_ path: String, _ text: String) throws -> URL {
    try write(path, Array(text.utf8))
  }
}
