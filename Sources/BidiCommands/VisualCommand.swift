import UnicodeBidi

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `bidi-lsp visual [--direction auto|ltr|rtl] [FILE|-]` (Protocol/specification.md, “The command line”):
/// prints each line of a file (or standard input) in visual order, left to
/// right, with mirrored glyphs, like the `fribidi` tool. It streams: one line
/// is held at a time, so it works on large files in pipelines. Lines end at
/// LF, CR LF or CR (written back as LF); a line holding several paragraphs
/// (U+2029 …) has each reordered by itself. `auto` is UAX #9's default: the
/// first strong character, else left to right.
public enum VisualCommand {
  public static let usage = """
    Usage: bidi-lsp visual [--direction auto|ltr|rtl] [FILE|-]
    Prints each line of FILE (or standard input) in visual order.

    """

  /// Runs the command; returns the exit status (0, or 2 on usage or I/O errors).
  public static func run(arguments: [String], stdout: Int32 = STDOUT_FILENO, stderr: Int32 = STDERR_FILENO) -> Int32 {
    var direction = BidiParagraph.Direction.auto
    var path: String?
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      switch argument {
      case "--direction":
        switch rest.popFirst() {
        case "auto": direction = .auto
        case "ltr": direction = .leftToRight
        case "rtl": direction = .rightToLeft
        default:
          write(stderr, "bidi-lsp visual: --direction needs auto, ltr or rtl\n\n" + usage)
          return 2
        }
      case "--help", "-h":
        write(stdout, usage)
        return 0
      default:
        if path != nil || (argument.hasPrefix("-") && argument != "-") {
          write(stderr, "bidi-lsp visual: unexpected argument '\(argument)'\n\n" + usage)
          return 2
        }
        path = argument
      }
    }
    let input: Int32
    if let path, path != "-" {
      input = open(path, O_RDONLY)
      if input < 0 {
        write(stderr, "bidi-lsp visual: cannot open \(path): \(String(cString: strerror(errno)))\n")
        return 2
      }
    } else {
      input = STDIN_FILENO
    }
    defer { if input != STDIN_FILENO { close(input) } }

    var output = OutputBuffer(fd: stdout)
    var line: [UInt8] = []
    var pendingCR = false
    let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 16)
    defer { chunk.deallocate() }
    while true {
      let count = read(input, chunk.baseAddress, chunk.count)
      if count < 0 {
        if errno == EINTR { continue }
        write(stderr, "bidi-lsp visual: read error: \(String(cString: strerror(errno)))\n")
        return 2
      }
      if count == 0 { break }
      for byte in chunk[0..<count] {
        if pendingCR {
          pendingCR = false
          if byte == 0x0A { continue }
        }
        if byte == 0x0A || byte == 0x0D {
          emit(line, direction, &output)
          line.removeAll(keepingCapacity: true)
          pendingCR = byte == 0x0D
        } else {
          line.append(byte)
        }
      }
    }
    if !line.isEmpty { emit(line, direction, &output) }
    return output.flush() ? 0 : 2
  }

  private static func emit(_ line: [UInt8], _ direction: BidiParagraph.Direction, _ output: inout OutputBuffer) {
    line.withUnsafeBufferPointer { bytes in
      let ranges = BidiParagraph.paragraphRanges(utf8: bytes)
      for range in ranges {
        let paragraph = BidiParagraph(utf8: UnsafeBufferPointer(rebasing: bytes[range]), direction: direction)
        for scalar in paragraph.line().visualScalars(mirrored: true) {
          output.append(scalar)
        }
      }
    }
    output.append(0x0A)
  }

  private static func write(_ fd: Int32, _ text: String) {
    var buffer = OutputBuffer(fd: fd)
    for scalar in text.unicodeScalars { buffer.append(scalar.value) }
    _ = buffer.flush()
  }

  /// Buffered UTF-8 output to a file descriptor.
  struct OutputBuffer {
    let fd: Int32
    var bytes: [UInt8] = []
    var failed = false

    init(fd: Int32) {
      self.fd = fd
      bytes.reserveCapacity(1 << 16)
    }

    mutating func append(_ scalar: UInt32) {
      let value = Unicode.Scalar(scalar) ?? "\u{FFFD}"
      bytes.append(contentsOf: UTF8.encode(value)!)
      if bytes.count >= 1 << 16 { _ = flush() }
    }

    mutating func flush() -> Bool {
      var offset = 0
      while offset < bytes.count && !failed {
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
        if written < 0 {
          if errno == EINTR { continue }
          failed = true
        } else {
          offset += written
        }
      }
      bytes.removeAll(keepingCapacity: true)
      return !failed
    }
  }
}
