import BidiTestSupport
import Foundation
import JSONRPC
import Synchronization
import XCTest

/// A field of `/proc/PID/status` ("VmRSS", "VmHWM"), in bytes.
func processMemory(_ pid: pid_t, _ field: String) -> Int {
  guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
    let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
    let kilobytes = Int(line.split(separator: " ").dropFirst().first { !$0.isEmpty } ?? "")
  else { return 0 }
  return kilobytes << 10
}

/// Resets a process's peak RSS (VmHWM) to its current RSS (`5` into
/// `/proc/PID/clear_refs`), so that the next peak is one request's.
func resetPeakMemory(_ pid: pid_t) {
  guard let file = fopen("/proc/\(pid)/clear_refs", "w") else { return }
  fputs("5", file)
  fclose(file)
}

/// Writes framed messages to a daemon from a thread of its own, without
/// reading what it answers: a client that does not read its input.
final class FloodWriter: @unchecked Sendable {
  private let client: TestClient
  private let progress = Mutex((written: 0, done: false, error: String?.none))
  private let finished = DispatchSemaphore(value: 0)

  /// Starts writing `batches` (each a run of framed messages).
  init(_ client: TestClient, _ batches: [[UInt8]]) {
    self.client = client
    let thread = Thread { [self] in
      do throws(TestClientError) {
        for batch in batches {
          try self.client.sendRawWithoutReading(batch, timeout: 300)
          progress.withLock { $0.written += 1 }
        }
      } catch {
        progress.withLock { $0.error = error.description }
      }
      progress.withLock { $0.done = true }
      finished.signal()
    }
    thread.start()
  }

  /// Batches written so far, and whether the writer has finished.
  var state: (written: Int, done: Bool) { progress.withLock { ($0.written, $0.done) } }

  /// Waits until the writer has made no progress for `quiet` seconds (the
  /// daemon has stopped reading) or has finished; returns `state`.
  func waitUntilBlocked(quiet: Double = 1.5, timeout: Double = 120) -> (written: Int, done: Bool) {
    let start = Date()
    var last = state
    var since = Date()
    while Date().timeIntervalSince(start) < timeout {
      usleep(50_000)
      let now = state
      if now.done { return now }
      if now.written != last.written {
        last = now
        since = Date()
      } else if Date().timeIntervalSince(since) >= quiet {
        return now
      }
    }
    return state
  }

  /// Waits for the writer to finish; the error it met, if any.
  func join() -> String? {
    _ = finished.wait(timeout: .now() + 300)
    return progress.withLock { $0.error }
  }
}

/// Issue 10 finding 3 against the built daemon: a client that writes
/// requests and does not read the answers. The daemon stops reading once its
/// bounded queues are full, so its memory stays bounded; nothing is lost.
final class BackPressureFloodTests: XCTestCase {
  static let uri = "file:///flood.txt"

  static func request(_ id: Int) -> [UInt8] {
    MessageWriter.frame(
      Array(
        #"{"jsonrpc":"2.0","id":\#(id),"method":"bidi/naturalDirection","params":{"textDocument":{"uri":"\#(uri)"}}}"#
          .utf8))
  }

  static func cancel(_ id: Int) -> [UInt8] {
    MessageWriter.frame(Array(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":\#(id)}}"#.utf8))
  }

  /// `count` requests in batches of 1,000; every `cancelEvery`-th is
  /// followed by its cancel. Ids start at 1,000,000.
  static func batches(_ count: Int, cancelEvery: Int? = nil) -> [[UInt8]] {
    stride(from: 0, to: count, by: 1000).map { first in
      var batch: [UInt8] = []
      for index in first..<min(first + 1000, count) {
        batch += request(1_000_000 + index)
        if let cancelEvery, index % cancelEvery == 0 { batch += cancel(1_000_000 + index) }
      }
      return batch
    }
  }

  /// Reads answers until each of `count` flood ids has one; returns them by id.
  static func readAnswers(_ daemon: Daemon, _ count: Int) throws -> [Int: JSONValue] {
    var answers: [Int: JSONValue] = [:]
    var duplicates = 0
    while answers.count < count {
      let message = try daemon.client.nextMessage(timeout: 120)
      guard let id = message["id"]?.intValue, id >= 1_000_000 else { continue }
      if answers.updateValue(message, forKey: Int(id)) != nil { duplicates += 1 }
    }
    XCTAssertEqual(duplicates, 0, "requests answered twice")
    return answers
  }

  func testAFloodWithoutReadingKeepsTheDaemonsMemoryBounded() throws {
    let daemon = try Daemon.initialized()
    try daemon.open(Self.uri, "שלום world\nabc\n")
    let pid = daemon.client.processID
    let count = 200_000
    let writer = FloodWriter(daemon.client, Self.batches(count))
    let blocked = writer.waitUntilBlocked()
    let peak = processMemory(pid, "VmHWM")
    let resident = processMemory(pid, "VmRSS")
    XCTAssertFalse(blocked.done, "the daemon read all 200,000 requests without anyone reading its answers")
    XCTAssertLessThan(peak, 150 << 20, "VmHWM \(peak >> 20) MB with \(blocked.written) batches written")
    let answers = try Self.readAnswers(daemon, count)
    XCTAssertNil(writer.join())
    XCTAssertEqual(answers.values.filter { $0["result"]?["paragraphs"]?.arrayValue?.count == 3 }.count, count)
    usleep(500_000)
    let drained = processMemory(pid, "VmRSS")
    XCTAssertLessThan(drained, 100 << 20, "VmRSS after the drain: \(drained >> 20) MB")
    print(
      "flood: blocked after \(blocked.written) of \(count / 1000) batches; VmRSS \(resident >> 20) MB,"
        + " VmHWM \(peak >> 20) MB; after the drain VmRSS \(drained >> 20) MB")
  }

  /// The same under sanitizers (no memory figures): cancels read while the
  /// daemon is held up by its full output still withdraw queued requests,
  /// and every request is answered exactly once.
  func testCancelsDuringAFloodAreAnsweredAndNothingIsLost() throws {
    let daemon = try Daemon.initialized()
    try daemon.open(Self.uri, "שלום world\nabc\n")
    let count = 20_000
    let writer = FloodWriter(daemon.client, Self.batches(count, cancelEvery: 10))
    _ = writer.waitUntilBlocked()
    let answers = try Self.readAnswers(daemon, count)
    XCTAssertNil(writer.join())
    var cancelled = 0
    for (id, answer) in answers {
      if let code = answer["error"]?["code"]?.intValue {
        XCTAssertEqual(code, -32800, "\(id): \(answer)")
        XCTAssertEqual((id - 1_000_000) % 10, 0, "\(id) was not cancelled")
        cancelled += 1
      } else {
        XCTAssertNotNil(answer["result"]?["paragraphs"], "\(id)")
      }
    }
    // A cancel read right after its request finds it queued (the worker is
    // held up by the output the test does not read), except by rare chance.
    XCTAssertGreaterThan(cancelled, count / 20, "cancels that withdrew a queued request")
    // Still serving.
    XCTAssertNotNil(try daemon.request("bidi/documentInfo", ["textDocument": ["uri": .string(Self.uri)]])["result"])
  }
}
