import BidiTestSupport
import JSONRPC
import XCTest

/// Specification, “Transport” and “Lifecycle and errors”, bad input at random: seeded mutations of real messages
/// (in their bodies and in their headers). Whatever each becomes, the daemon
/// must answer it sensibly, keep serving, and keep the open documents intact.
final class FuzzTests: XCTestCase {
  static let bodyMutations = 1500
  static let headerMutations = 500

  private let uriA = "file:///battery/a.txt"
  private let uriB = "file:///battery/b.txt"
  private let textA = "مرحبا بالعالم\r\nworld 😀 עולם\rשלום\n"
  private let textB = "line one\nline two 𝒜"

  /// Message bodies to mutate. None can become `shutdown` or `exit`, name
  /// the open documents, or take the small positive ids the probes use, with
  /// a few byte edits.
  private let templates: [String] = [
    #"{"jsonrpc":"2.0","id":-900000007,"method":"bidi/documentInfo","params":{"textDocument":{"uri":"file:///battery/a.txt"},"includeText":true}}"#,
    #"{"jsonrpc":"2.0","id":"fuzz-seven","method":"bidi/documentInfo","params":{"textDocument":{"uri":"file:///fuzz/none.txt"}}}"#,
    #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///fuzz/new.txt","version":3},"contentChanges":[{"range":{"start":{"line":0,"character":1},"end":{"line":0,"character":2}},"text":"ß😀\r\n"}]}}"#,
    #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///fuzz/new.txt","languageId":"plaintext","version":1,"text":"abc\nשלום"}}}"#,
    #"{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"file:///fuzz/new.txt"}}}"#,
    #"{"jsonrpc":"2.0","id":-900000008,"method":"initialize","params":{"processId":null,"capabilities":{"general":{"positionEncodings":["utf-8"]}}}}"#,
    #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":-900000007}}"#,
    #"{"jsonrpc":"2.0","id":[1],"method":"no/such","params":[1,2.5,-3e10,null,true,"\u0041\n"]}"#,
  ]

  func testMutatedMessagesNeverCrashOrCorruptDocuments() throws {
    // BIDI_FUZZ_SEED=n runs another seed (to hunt for bugs locally).
    let seed = getenv("BIDI_FUZZ_SEED").flatMap { UInt64(String(cString: $0)) } ?? 0xF022
    var random = SeededGenerator(seed: seed)
    let daemon = try Daemon.initialized(arguments: ["--max-message-size", "65536"])
    try daemon.open(uriA, textA)
    try daemon.open(uriB, textB)
    var sent = 0
    for index in 0..<(Self.bodyMutations + Self.headerMutations) {
      let template = Array(templates[Int.random(in: 0..<templates.count, using: &random)].utf8)
      let bytes: [UInt8]
      if index < Self.bodyMutations {
        bytes = frame(mutate(template, times: Int.random(in: 1...3, using: &random), using: &random))
      } else {
        // A broken header may announce another length (at most four digits
        // after one edit without repeats): blank lines after it are harmless
        // whether they are read as a body or skipped.
        let header = Array("Content-Length: \(template.count)\r\n\r\n".utf8)
        bytes =
          mutate(header, times: 1, repeats: false, using: &random) + template
          + Array(repeating: UInt8(ascii: "\n"), count: 10_000)
      }
      try daemon.sendRaw(bytes)
      let problems: [String]
      do {
        problems = try check(daemon)
      } catch {
        XCTFail(
          "seed \(seed), input \(index) \(String(decoding: bytes.prefix(300), as: UTF8.self).debugDescription): \(error)"
        )
        return
      }
      if !problems.isEmpty {
        XCTFail(
          "seed \(seed), input \(index) \(String(decoding: bytes.prefix(300), as: UTF8.self).debugDescription): \(problems)"
        )
        return
      }
      sent += 1
    }
    XCTAssertEqual(sent, Self.bodyMutations + Self.headerMutations)
    XCTAssertEqual(try daemon.shutdownAndExit(), 0)
  }

  /// The documents are intact and every message so far is a well-formed
  /// answer or a log message.
  private func check(_ daemon: Daemon) throws -> [String] {
    var problems: [String] = []
    let a = try daemon.info(uriA)
    let b = try daemon.info(uriB)
    if a["text"]?.stringValue != textA || a["version"] != 1 { problems.append("document A changed: \(a)") }
    if b["text"]?.stringValue != textB || b["version"] != 1 { problems.append("document B changed: \(b)") }
    let allowed: Set<Int> = [-32700, -32600, -32601, -32602, -32800]
    for message in daemon.client.reader.takePending() {
      if message["method"] == "window/logMessage" { continue }
      if message["method"] != nil { problems.append("unexpected notification \(message)") }
      if message["jsonrpc"] != "2.0" { problems.append("no jsonrpc in \(message)") }
      let hasResult = message["result"] != nil
      let code = message["error"]?["code"]?.intValue
      if hasResult == (code != nil) { problems.append("not a result xor an error: \(message)") }
      if let code, !allowed.contains(code) { problems.append("unexpected error code in \(message)") }
    }
    return problems
  }

  /// `bytes` with `times` random edits: a byte replaced, deleted, inserted,
  /// a slice repeated (if `repeats`), or the end cut off.
  private func mutate(_ bytes: [UInt8], times: Int, repeats: Bool = true, using random: inout SeededGenerator)
    -> [UInt8]
  {
    let interesting: [UInt8] =
      Array(#"{}[]":,\0123456789-.eE"#.utf8) + [0, 0x0A, 0x0D, 0x7F, 0x80, 0xC3, 0xED, 0xF4, 0xFF]
    var result = bytes
    for _ in 0..<times where !result.isEmpty {
      let at = Int.random(in: 0..<result.count, using: &random)
      let byte =
        Bool.random(using: &random)
        ? interesting[Int.random(in: 0..<interesting.count, using: &random)] : UInt8.random(in: 0...255, using: &random)
      switch Int.random(in: 0..<5, using: &random) {
      case 0: result[at] = byte
      case 1: result.remove(at: at)
      case 2: result.insert(byte, at: at)
      case 3 where repeats:
        let end = min(result.count, at + Int.random(in: 1...12, using: &random))
        result.insert(contentsOf: result[at..<end], at: at)
      default: result.removeSubrange(at...)
      }
    }
    return result
  }
}
