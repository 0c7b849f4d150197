import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A leveled logger writing one line per entry to stderr or a file, never to
/// stdout (which carries only protocol messages). Thread-safe.
///
/// Lines look like `2025-05-01T12:34:56.789Z warning: message`.
package final class Logger: Sendable {
  /// Severity, from the most to the least important.
  package enum Level: Int, Comparable, Sendable, CaseIterable, CustomStringConvertible {
    case error, warning, info, debug, trace

    /// Parses `error`, `warn`/`warning`, `info`, `debug`, `trace` (any case).
    package init?(_ name: String) {
      switch name.lowercased() {
      case "error": self = .error
      case "warn", "warning": self = .warning
      case "info": self = .info
      case "debug": self = .debug
      case "trace": self = .trace
      default: return nil
      }
    }

    package var description: String {
      switch self {
      case .error: return "error"
      case .warning: return "warning"
      case .info: return "info"
      case .debug: return "debug"
      case .trace: return "trace"
      }
    }

    package static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// Why a log file could not be opened.
  package struct OpenError: Error, Sendable, CustomStringConvertible {
    package var path: String
    package var errno: Int32
    package var description: String {
      "cannot open log file \(path): \(String(cString: strerror(errno)))"
    }
  }

  /// Entries above this level are dropped.
  package let level: Level
  private let fileDescriptor: Int32
  private let ownsFileDescriptor: Bool
  private let lock = Mutex<Void>(())

  /// Logs to `fileDescriptor` (stderr by default; stdout is refused and
  /// replaced by stderr). The descriptor is not closed by the logger.
  package init(level: Level = .info, fileDescriptor: Int32 = STDERR_FILENO) {
    self.level = level
    self.fileDescriptor = fileDescriptor == STDOUT_FILENO ? STDERR_FILENO : fileDescriptor
    self.ownsFileDescriptor = false
  }

  /// Logs to the file at `path`, appending (created with mode 0644).
  package init(level: Level = .info, path: String) throws(OpenError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw OpenError(path: path, errno: errno) }
    self.level = level
    self.fileDescriptor = descriptor
    self.ownsFileDescriptor = true
  }

  /// A logger that drops everything.
  package static func disabled() -> Logger { Logger(level: .error, fileDescriptor: -1) }

  deinit {
    if ownsFileDescriptor { close(fileDescriptor) }
  }

  /// Whether entries at `level` are written (check before building costly messages).
  package func isEnabled(_ level: Level) -> Bool { level <= self.level && fileDescriptor >= 0 }

  package func log(_ level: Level, _ message: @autoclosure () -> String) {
    guard isEnabled(level) else { return }
    var line = Self.timestamp()
    line += " \(level): "
    line += message()
    line += "\n"
    var bytes = Array(line.utf8)
    lock.withLock { _ in
      bytes.withUnsafeMutableBytes { raw in
        guard let base = raw.baseAddress else { return }
        var offset = 0
        while offset < raw.count {
          let written = write(fileDescriptor, base + offset, raw.count - offset)
          if written < 0 {
            if errno == EINTR { continue }
            return
          }
          offset += written
        }
      }
    }
  }

  package func error(_ message: @autoclosure () -> String) { log(.error, message()) }
  package func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
  package func info(_ message: @autoclosure () -> String) { log(.info, message()) }
  package func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
  package func trace(_ message: @autoclosure () -> String) { log(.trace, message()) }

  /// UTC, ISO 8601 with milliseconds.
  private static func timestamp() -> String {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    var seconds = now.tv_sec
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func pad(_ value: Int32, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))"
      + "T\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))"
      + ".\(pad(Int32(now.tv_nsec / 1_000_000), 3))Z"
  }
}
