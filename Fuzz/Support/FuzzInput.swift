/// The bytes libFuzzer hands a target, read from the front as the choices a
/// structured target makes (a byte, a small number, a slice); once they run
/// out every read gives zero, so any input is a valid run.
struct FuzzInput {
  private let bytes: UnsafeBufferPointer<UInt8>
  private var offset = 0

  init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
    bytes = UnsafeBufferPointer(start: data, count: data == nil ? 0 : size)
  }

  var isEmpty: Bool { offset >= bytes.count }

  /// The next byte (0 past the end).
  mutating func byte() -> UInt8 {
    guard offset < bytes.count else { return 0 }
    defer { offset += 1 }
    return bytes[offset]
  }

  /// A number in `0..<count` (from one or two bytes).
  mutating func number(below count: Int) -> Int {
    guard count > 1 else { return 0 }
    let raw = count <= 256 ? Int(byte()) : Int(byte()) << 8 | Int(byte())
    return raw % count
  }

  /// One of `choices` (which must not be empty).
  mutating func choice<T>(_ choices: [T]) -> T { choices[number(below: choices.count)] }

  /// Up to `count` next bytes.
  mutating func bytes(_ count: Int) -> [UInt8] {
    let end = min(bytes.count, offset + max(0, count))
    defer { offset = max(offset, end) }
    return offset < end ? Array(bytes[offset..<end]) : []
  }

  /// Everything not read yet.
  mutating func rest() -> [UInt8] { bytes(bytes.count - offset) }
}

/// Stops the run with `message`: libFuzzer records the input as a crash.
func fuzzFailure(_ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) -> Never {
  fatalError(message(), file: file, line: line)
}
