/// The bytes of one framed message, held as a list of chunks so that a large
/// body is never reallocated while it arrives and can be freed chunk by
/// chunk while it is decoded.
///
/// A reference type on purpose: `JSONValue(decoding: body)` *takes* the bytes
/// out of the body (it is empty afterwards, wherever it is referenced), so
/// that no stray copy of an event keeps a 100 MB body alive while it is
/// decoded. Not for concurrent use: one thread owns a body at a time.
package final class MessageBody: @unchecked Sendable {
  private var chunks: [[UInt8]]
  /// The number of bytes in the body.
  package private(set) var count: Int

  package convenience init() {
    self.init(ChunkBuffer())
  }

  package convenience init(_ bytes: [UInt8]) {
    var buffer = ChunkBuffer()
    buffer.chunks = bytes.isEmpty ? [] : [bytes]
    buffer.count = bytes.count
    self.init(buffer)
  }

  init(_ buffer: ChunkBuffer) {
    chunks = buffer.chunks
    count = buffer.count
  }

  /// True once decoding has taken the bytes (or if there were none).
  package var isEmpty: Bool { count == 0 }

  /// All bytes, contiguous (a copy when the body has several chunks).
  package var bytes: [UInt8] {
    if chunks.count == 1 { return chunks[0] }
    var result: [UInt8] = []
    result.reserveCapacity(count)
    for chunk in chunks { result.append(contentsOf: chunk) }
    return result
  }

  /// Removes and returns the chunks, leaving the body empty.
  func takeChunks() -> [[UInt8]] {
    defer {
      chunks = []
      count = 0
    }
    return chunks
  }
}

/// Bytes accumulated in chunks of bounded capacity (a value type, so a copied
/// `MessageFramer` never shares a body being read).
struct ChunkBuffer: Sendable {
  var chunks: [[UInt8]] = []
  var count = 0

  /// The capacity currently allocated.
  var allocatedCapacity: Int {
    chunks.reduce(0) { $0 + $1.capacity }
  }

  /// Appends bytes, filling the last chunk up to `chunkCapacity` and starting
  /// new chunks with a capacity of `min(remaining, chunkCapacity)` bytes: the
  /// memory reserved ahead of the bytes is bounded by `chunkCapacity`, never
  /// by the (untrusted) announced length. `remaining` counts the body bytes
  /// still expected, these included.
  mutating func append(_ bytes: UnsafeRawBufferPointer, remaining: Int, chunkCapacity: Int) {
    var bytes = bytes[...]
    var remaining = remaining
    while !bytes.isEmpty {
      if chunks.isEmpty || chunks[chunks.count - 1].count >= chunkCapacity {
        var chunk: [UInt8] = []
        chunk.reserveCapacity(min(remaining, chunkCapacity))
        chunks.append(chunk)
      }
      let last = chunks.count - 1
      let take = min(chunkCapacity - chunks[last].count, bytes.count)
      chunks[last].append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes.prefix(take)))
      bytes = bytes.dropFirst(take)
      count += take
      remaining -= take
    }
  }
}
