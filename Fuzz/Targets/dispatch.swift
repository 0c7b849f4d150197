// Arbitrary JSON through the daemon's whole message path: a fresh
// `Connection` (reader thread, queue, worker) and `BidiLanguageServer` per
// input, reading a file, after initialize and a didOpen. The input is split at
// its first 31 0xFF bytes (never in UTF-8 JSON) into at most 32 message
// bodies, each framed with its true length: a mutated input of thousands of
// 0xFF bytes would otherwise be thousands of empty messages, each answered,
// at a hundred times the cost of a run (the bytes past the 31st separator
// stay in the last body). Never a trap; everything the daemon writes is framed
// JSON-RPC 2.0: each message an object with "jsonrpc": "2.0", a response
// with exactly one of "result" and "error". (The server's API is being
// rebuilt: this target's glue is this one file.)
//
// fuzz-options: -max_len=4096
import BidiServer
import JSONRPC

#if canImport(Glibc)
  import Glibc
#endif

private let prefix = [
  #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{"general":{"positionEncodings":["utf-8"]}}}}"#,
  #"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
  #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///f.txt","languageId":"plaintext","version":1,"text":"abc مرحبا (שלום) 123\n\u202Eevil\u202C x\r\nend"}}}"#,
].map { Array($0.utf8) }

private let logger = try! Logger(level: .error, path: "/dev/null")

/// An unlinked temporary file, emptied for each input.
private func scratchFile(_ name: String) -> Int32 {
  var template = Array("/tmp/bidi-lsp-fuzz-\(name)-XXXXXX".utf8CString)
  let descriptor = mkstemp(&template)
  guard descriptor >= 0 else { fuzzFailure("mkstemp: \(errno)") }
  unlink(template)
  return descriptor
}

/// What the daemon reads (its whole input, then end of file) and writes.
private let input = scratchFile("input")
private let output = scratchFile("output")

private func frame(_ body: [UInt8]) -> [UInt8] { Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDispatch(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bodies = UnsafeBufferPointer(start: data, count: data == nil ? 0 : size).split(
    separator: 0xFF, maxSplits: 31, omittingEmptySubsequences: false)
  var stream = prefix.flatMap(frame)
  for body in bodies { stream += frame(Array(body)) }

  for file in [input, output] {
    guard ftruncate(file, 0) == 0, lseek(file, 0, SEEK_SET) == 0 else { fuzzFailure("truncate: \(errno)") }
  }
  let written = stream.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
  guard written == stream.count, lseek(input, 0, SEEK_SET) == 0 else {
    fuzzFailure("wrote \(written) of \(stream.count) bytes")
  }

  var connection: Connection? = Connection(
    input: input, output: output, options: Connection.Options(maximumMessageSize: 1 << 20), logger: logger)
  weak var running = connection
  do {
    let server = BidiLanguageServer(logger: logger)
    _ = connection?.run(server)
  }
  connection = nil
  // The reader thread holds the connection until it has read to the end.
  while running != nil { usleep(10) }

  let length = Int(lseek(output, 0, SEEK_END))
  var bytes = [UInt8](repeating: 0, count: length)
  let got = bytes.withUnsafeMutableBytes { pread(output, $0.baseAddress, length, 0) }
  guard got == length else { fuzzFailure("read \(got) of \(length) output bytes") }

  var framer = MessageFramer()
  var events = framer.feed(bytes)
  if let last = framer.finish() { events.append(last) }
  var answeredInitialize = false
  for (index, event) in events.enumerated() {
    guard case .message(let body) = event, let message = try? JSONValue(decoding: body) else {
      fuzzFailure("output message \(index) is not framed JSON: \(event)")
    }
    guard message["jsonrpc"] == "2.0" else { fuzzFailure("no jsonrpc 2.0 in \(message)") }
    if message["method"] == nil && (message["result"] == nil) == (message["error"] == nil) {
      fuzzFailure("a response needs exactly one of result and error: \(message)")
    }
    // The first answer to id 0 is initialize's (a request the input sends
    // with id 0 is answered after it). Answers may come in any order: a
    // queued request that the input cancels is answered -32800 at once,
    // and so may initialize be.
    if !answeredInitialize && message["method"] == nil && message["id"] == 0 {
      answeredInitialize = true
      guard message["result"] != nil || message["error"]?["code"] == -32800 else {
        fuzzFailure("initialize failed: \(message)")
      }
    }
  }
  guard answeredInitialize else { fuzzFailure("initialize was not answered") }
  return 0
}
