// The LSP framer fed arbitrary bytes in arbitrary chunks, against the naive
// model of the specification's rule. Never a trap; the events (every body,
// byte for byte) are the model's whatever the chunking; the memory held for
// a body stays bounded by the bytes received, never by an announced length.
//
// fuzz-sources: Tests/JSONRPCTests/FramingModel.swift
// fuzz-options: -max_len=4096
import JSONRPC

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFramer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  let lineLimit = input.choice([32, 48, 64 << 10])
  let messageLimit = input.choice([0, 5, 100, 512 << 20])
  let chunkCapacity = input.choice([1, 7, 64, 256 << 10])
  let sizes = input.bytes(3).map { Int($0) % 40 + 1 }
  let stream = input.rest()
  let expected = FramingModel.frame(stream, lineLimit: lineLimit, messageLimit: messageLimit)

  var framer = MessageFramer(
    maximumMessageSize: messageLimit, maximumHeaderLineLength: lineLimit, chunkCapacity: chunkCapacity)
  var seen: [FramingModel.Event] = []
  func record(_ event: MessageFramer.Event) {
    switch event {
    case .message(let body): seen.append(.message(body.bytes))
    case .oversized(let length, let limit):
      if length <= limit { fuzzFailure("oversized \(length) within the limit \(limit)") }
      seen.append(.oversized(length))
    case .error: seen.append(.error)
    }
  }
  var offset = 0
  var chunk = 0
  stream.withUnsafeBytes { raw in
    while offset < raw.count {
      let take = min(sizes.isEmpty ? raw.count : sizes[chunk % sizes.count], raw.count - offset)
      framer.feed(UnsafeRawBufferPointer(rebasing: raw[offset..<offset + take]), onEvent: record)
      offset += take
      chunk += 1
      // Reserved ahead of the bytes: at most a chunk (and allocator rounding).
      if framer.bufferedBodyCapacity > 2 * offset + 2 * chunkCapacity + 64 {
        fuzzFailure("\(framer.bufferedBodyCapacity) bytes reserved after \(offset) bytes of input")
      }
    }
  }
  if let last = framer.finish() { record(last) }
  if seen != expected {
    fuzzFailure("framer \(seen) ≠ model \(expected) (limits \(lineLimit)/\(messageLimit), chunks \(sizes))")
  }
  return 0
}
