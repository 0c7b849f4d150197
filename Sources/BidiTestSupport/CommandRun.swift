#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// What a finished command printed and how it ended.
package struct CommandResult: Sendable, Hashable {
  /// The exit status (128 + signal number if a signal killed it).
  package var status: Int32
  /// What it wrote to stdout, byte for byte.
  package var standardOutputBytes: [UInt8]
  package var standardError: String

  /// Stdout as text (ill-formed UTF-8 as U+FFFD).
  package var standardOutput: String { String(decoding: standardOutputBytes, as: UTF8.self) }
}

extension TestClient {
  /// Runs `executable` with `arguments` to completion, in `directory` (the
  /// test's own when nil), feeding it `input` on stdin, and returns its
  /// status and output. Output goes through temporary files, so a command
  /// that prints a lot cannot block. A command still running after
  /// `timeout` seconds is killed and `.timedOut` is thrown.
  package static func run(
    _ executable: String, arguments: [String] = [], input: [UInt8] = [], in directory: String? = nil,
    timeout: Double = 30
  ) throws(TestClientError) -> CommandResult {
    let inputFile = try TemporaryFile(contents: input)
    let outputFile = try TemporaryFile(contents: [])
    let errorFile = try TemporaryFile(contents: [])
    defer {
      inputFile.remove()
      outputFile.remove()
      errorFile.remove()
    }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, inputFile.descriptor, 0)
    posix_spawn_file_actions_adddup2(&actions, outputFile.descriptor, 1)
    posix_spawn_file_actions_adddup2(&actions, errorFile.descriptor, 2)

    // In another directory through GNU env's --chdir (posix_spawn's own
    // addchdir is not in the Glibc module).
    let program = directory == nil ? executable : "/usr/bin/env"
    let words = directory.map { ["/usr/bin/env", "--chdir=\($0)", executable] } ?? [executable]
    let argv = (words + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, program, &actions, nil, argv, environ)
    guard result == 0 else { throw .system(call: "posix_spawn \(executable)", errno: result) }

    let deadline = Deadline(seconds: timeout)
    var status: Int32? = nil
    while status == nil {
      var raw: Int32 = 0
      let waited = waitpid(pid, &raw, WNOHANG)
      if waited == pid {
        let signal = raw & 0x7f
        status = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
      } else if waited < 0, errno != EINTR {
        throw .system(call: "waitpid", errno: errno)
      } else if deadline.remainingMilliseconds == nil {
        _ = kill(pid, SIGKILL)
        _ = waitpid(pid, &raw, 0)
        throw .timedOut(waitingFor: "\(executable) to exit", seconds: timeout)
      } else {
        usleep(2_000)
      }
    }
    return CommandResult(
      status: status ?? -1,
      standardOutputBytes: outputFile.contents(),
      standardError: String(decoding: errorFile.contents(), as: UTF8.self))
  }
}

/// A file in /tmp, open for reading and writing.
private struct TemporaryFile {
  let path: String
  let descriptor: Int32

  init(contents: [UInt8]) throws(TestClientError) {
    var template = Array("/tmp/bidi-test-run-XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let base = buffer.baseAddress else { return -1 }
      return mkstemp(base)
    }
    guard descriptor >= 0 else { throw .system(call: "mkstemp", errno: errno) }
    self.descriptor = descriptor
    path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    var offset = 0
    while offset < contents.count {
      let written = contents.withUnsafeBytes { raw in
        write(descriptor, raw.baseAddress! + offset, raw.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        throw .system(call: "write", errno: errno)
      }
      offset += written
    }
    lseek(descriptor, 0, SEEK_SET)
  }

  /// Everything in the file, from the start.
  func contents() -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var offset: off_t = 0
    while true {
      let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
      if count < 0, errno == EINTR { continue }
      if count <= 0 { break }
      bytes += buffer[0..<count]
      offset += off_t(count)
    }
    return bytes
  }

  func remove() {
    close(descriptor)
    unlink(path)
  }
}
