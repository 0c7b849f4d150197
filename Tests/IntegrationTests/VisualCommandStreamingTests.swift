import BidiTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// `bidi-lsp visual` in bounded memory (issue 10): a line longer than
/// `--max-paragraph` is reordered paragraph by paragraph, a single longer
/// paragraph is refused with exit status 2, and neither a 100 MB file
/// without a newline nor `/dev/zero` makes it grow. Peak memory is read from
/// `/proc/PID/status` (VmHWM) while the command runs, with a generous bound.
final class VisualCommandStreamingTests: XCTestCase {
  /// What a run of the built binary did.
  struct Run {
    var status: Int32
    var peakKilobytes: Int
    var output: [UInt8]
    var errorOutput: String
  }

  /// Runs `bidi-lsp visual ARGUMENTS` with standard input from `inputPath`
  /// and at most `dataLimit` KiB of data, polling its VmHWM until it exits
  /// (killed after `timeout` seconds).
  func runVisual(
    _ arguments: [String], inputPath: String, keepOutput: Bool = false, dataLimit: Int = 256 * 1024,
    timeout: Double = 120
  ) throws -> Run {
    let binary = try XCTUnwrap(TestClient.builtProduct(), "build bidi-lsp first")
    let scratch = try HazardScratch()
    let outputPath = keepOutput ? scratch.url.appendingPathComponent("out").path : "/dev/null"
    let errorPath = scratch.url.appendingPathComponent("err").path
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, inputPath, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let shell = "ulimit -d \(dataLimit) && exec \"$0\" \"$@\""
    let argv = (["/bin/sh", "-c", shell, binary, "visual"] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    XCTAssertEqual(posix_spawn(&pid, "/bin/sh", &actions, nil, argv, environ), 0)
    var peak = 0
    let start = Date()
    var raw: Int32 = 0
    while true {
      if let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
        let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
      {
        peak = max(peak, kilobytes)
      }
      if waitpid(pid, &raw, WNOHANG) == pid { break }
      if Date().timeIntervalSince(start) > timeout {
        kill(pid, SIGKILL)
        _ = waitpid(pid, &raw, 0)
        XCTFail("bidi-lsp visual \(arguments) still running after \(timeout) s")
        break
      }
      usleep(1_000)
    }
    let status = raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
    let output = keepOutput ? (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: outputPath)))) ?? [] : []
    let errorOutput = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
    return Run(status: status, peakKilobytes: peak, output: output, errorOutput: errorOutput)
  }

  /// Writes `count` bytes repeating `pattern` to a file in `scratch`.
  func writeFile(_ scratch: HazardScratch, _ name: String, pattern: [UInt8], count: Int) throws -> String {
    let url = scratch.url.appendingPathComponent(name)
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    let handle = try FileHandle(forWritingTo: url)
    var block: [UInt8] = []
    while block.count < 1 << 20 { block += pattern }
    block.removeLast(block.count % pattern.count)
    var written = 0
    while written < count {
      let part = block.prefix(count - written)
      handle.write(Data(part))
      written += part.count
    }
    try handle.close()
    return url.path
  }

  /// 100 MB of mixed text without a line break: refused at the limit, after
  /// reading little more than the limit; memory stays near it.
  func testA100MBLineIsRefusedInBoundedMemory() throws {
    let scratch = try HazardScratch()
    let pattern = Array("abc \u{5E9}\u{5DC}\u{5D5}\u{5DD} (x) 123 ".utf8)
    let path = try writeFile(scratch, "long.txt", pattern: pattern, count: 100_000_000)
    let run = try runVisual([path], inputPath: "/dev/null", dataLimit: 64 * 1024)
    XCTAssertEqual(run.status, 2)
    XCTAssertTrue(
      run.errorOutput.hasPrefix("bidi-lsp visual: line 1: a paragraph longer than 4194304 bytes"), run.errorOutput)
    XCTAssertLessThan(run.peakKilobytes, 64 * 1024, "peak RSS \(run.peakKilobytes) KiB")
  }

  func testDevZeroEndsWithAnErrorInBoundedMemory() throws {
    let run = try runVisual(["--max-paragraph", "1000000"], inputPath: "/dev/zero", dataLimit: 64 * 1024, timeout: 60)
    XCTAssertEqual(run.status, 2)
    XCTAssertTrue(run.errorOutput.contains("longer than 1000000 bytes"), run.errorOutput)
    XCTAssertLessThan(run.peakKilobytes, 64 * 1024, "peak RSS \(run.peakKilobytes) KiB")
  }

  /// 20 MB on one line of paragraphs (U+2029 every ~80 bytes): written
  /// paragraph by paragraph, the same as each paragraph alone, in memory
  /// that does not grow with the line.
  func testALongLineOfParagraphsStreams() throws {
    let scratch = try HazardScratch()
    let paragraph =
      "abc \u{5E9}\u{5DC}\u{5D5}\u{5DD} (x) [\u{5D0}] 12 \u{627}\u{644}\u{639}\u{631}\u{628}\u{64A}\u{629}\u{2029}"
    let pattern = Array(paragraph.utf8)
    let count = 20_000_000 / pattern.count * pattern.count
    let path = try writeFile(scratch, "paragraphs.txt", pattern: pattern, count: count)
    let run = try runVisual([path], inputPath: "/dev/null", dataLimit: 128 * 1024)
    XCTAssertEqual(run.status, 0, run.errorOutput)
    XCTAssertGreaterThan(run.peakKilobytes, 0, "VmHWM was read")
    XCTAssertLessThan(run.peakKilobytes, 128 * 1024, "peak RSS \(run.peakKilobytes) KiB")
    // The output of a smaller file with the same paragraph, checked whole.
    let small = try writeFile(scratch, "small.txt", pattern: pattern, count: pattern.count * 5000)
    let one = try HazardCommand.run(["visual"], input: Data(pattern))
    let chunked = try runVisual(["--max-paragraph", "1000", small], inputPath: "/dev/null", keepOutput: true)
    XCTAssertEqual(chunked.status, 0, chunked.errorOutput)
    let expected = Array(one.output.dropLast())
    var whole: [UInt8] = []
    for _ in 0..<5000 { whole += expected }
    whole.append(0x0A)
    XCTAssertEqual(chunked.output.count, whole.count)
    XCTAssertTrue(chunked.output == whole)
  }

  func testAParagraphUnderTheLimitIsReordered() throws {
    let scratch = try HazardScratch()
    let pattern = Array("\u{5D0}\u{5D1} ab ".utf8)
    let path = try writeFile(scratch, "rtl.txt", pattern: pattern, count: pattern.count * 100_000)
    let run = try runVisual([path], inputPath: "/dev/null", keepOutput: true)
    XCTAssertEqual(run.status, 0, run.errorOutput)
    XCTAssertEqual(run.output.count, pattern.count * 100_000 + 1)
    let refused = try runVisual(["--max-paragraph", "100000", path], inputPath: "/dev/null")
    XCTAssertEqual(refused.status, 2)
  }
}
