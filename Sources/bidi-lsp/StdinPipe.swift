// A larger pipe on standard input, so that an editor writing a large
// `didOpen` is not held up every 64 KiB. Emacs, for one, waits 20 ms each time
// a pipe to a process is full: a 6 MB document then costs it about a second.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Grows the pipe on standard input, when it is one, to the largest size the
/// system allows an unprivileged process (`/proc/sys/fs/pipe-max-size`).
/// Does nothing elsewhere (a file, a terminal, a socket, another system) or
/// when the system refuses: the pipe then keeps its size.
func enlargeStdinPipe() {
  #if os(Linux)
    var status = stat()
    guard fstat(STDIN_FILENO, &status) == 0, status.st_mode & S_IFMT == S_IFIFO else { return }
    let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ (F_LINUX_SPECIFIC_BASE + 7), not exported to Swift
    let getPipeSize: Int32 = 1032  // F_GETPIPE_SZ
    let current = fcntl(STDIN_FILENO, getPipeSize)
    var size = maximumPipeSize()
    // Past the per-user soft limit the kernel refuses: try smaller sizes.
    while size > current, fcntl(STDIN_FILENO, setPipeSize, size) < 0 {
      size /= 2
    }
  #endif
}

#if os(Linux)
  /// The value of `/proc/sys/fs/pipe-max-size`, or 1 MiB (the kernel's
  /// default) when it cannot be read.
  private func maximumPipeSize() -> Int32 {
    let fallback: Int32 = 1 << 20
    let descriptor = open("/proc/sys/fs/pipe-max-size", O_RDONLY)
    guard descriptor >= 0 else { return fallback }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: 32)
    let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count > 0 else { return fallback }
    var value = 0
    for byte in bytes[..<count] {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
      value = min(value * 10 + Int(byte - UInt8(ascii: "0")), Int(Int32.max))
    }
    return value > 0 ? Int32(value) : fallback
  }
#endif
