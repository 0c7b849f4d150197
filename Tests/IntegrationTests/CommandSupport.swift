import BidiTestSupport
import Foundation
import JSONRPC
import XCTest

// Helpers of the command-line tests (`check`, `visual`): a runner of the
// built `bidi-lsp` and a scratch directory.

/// Runs the built `bidi-lsp` with arguments, standard input and a working
/// directory; stdout and stderr go to files, so that no pipe can fill up.
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
    let scratch = try HazardScratch()
    let inputURL = scratch.url.appendingPathComponent("stdin")
    let outputURL = scratch.url.appendingPathComponent("stdout")
    let errorURL = scratch.url.appendingPathComponent("stderr")
    try input.write(to: inputURL)
    try Data().write(to: outputURL)
    try Data().write(to: errorURL)
    let stdin = try FileHandle(forReadingFrom: inputURL)
    let stdout = try FileHandle(forWritingTo: outputURL)
    let stderr = try FileHandle(forWritingTo: errorURL)
    defer {
      try? stdin.close()
      try? stdout.close()
      try? stderr.close()
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try builtDaemonPath())
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning {
      if Date() > deadline {
        process.terminate()
        process.waitUntilExit()
        throw HarnessError("bidi-lsp \(arguments.joined(separator: " ")) did not finish in \(timeout) s")
      }
      usleep(2_000)
    }
    return Result(
      status: process.terminationStatus, output: try Data(contentsOf: outputURL),
      errorOutput: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self))
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
