import BenchmarkSupport
import Glibc

/// A command line to time: the executable and its arguments, standard
/// output to /dev/null or, with `output`, to that regular file (emptied
/// first): `rg` writing to /dev/null stops at its first match, as `-q` does.
struct Command {
  var name: String
  var executable: String
  var arguments: [String]
  var output: String? = nil

  /// Runs it once; returns the CPU seconds it used (user + system: on a
  /// shared machine far steadier than wall-clock, and the same for these
  /// single-threaded processes when the machine is idle) and its exit status.
  func run() -> (seconds: Double, status: Int32) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    if let output {
      posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    } else {
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    }
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else { return (0, -1) }
    var raw: Int32 = 0
    var usage = rusage()
    while wait4(pid, &raw, 0, &usage) < 0 && errno == EINTR {}
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    let seconds = seconds(usage.ru_utime) + seconds(usage.ru_stime)
    return (seconds, raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F))
  }

  /// The median of `repetitions` runs after one warm-up run, or nil if a
  /// run exited with a status not in `statuses`.
  func median(_ repetitions: Int, statuses: Set<Int32>) -> Double? {
    guard statuses.contains(run().status) else { return nil }
    var times: [Double] = []
    for _ in 0..<repetitions {
      let (seconds, status) = run()
      guard statuses.contains(status) else { return nil }
      times.append(seconds)
    }
    return BenchmarkSupport.median(times)
  }
}

/// Finds `name` on the PATH.
func which(_ name: String) -> String? {
  guard let path = getenv("PATH").map({ String(cString: $0) }) else { return nil }
  for folder in path.split(separator: ":") {
    let candidate = "\(folder)/\(name)"
    if access(candidate, X_OK) == 0 { return candidate }
  }
  return nil
}
