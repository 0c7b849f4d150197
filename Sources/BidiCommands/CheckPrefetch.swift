import DocumentFormats
import JSONRPC
import Localization
import StructuredText
import UnicodeBidi

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The structured files named on `check`'s command line, read and checked
/// on worker threads (one per processor, at most `window` files ahead of
/// the one being reported) while `CheckRun` reports them in the order
/// given: the output is the same as checking them one after the other.
/// Only files whose findings depend on nothing but their own bytes are
/// taken (not a localization file that may be paired with a source file,
/// whose catalog `CheckRun` caches); everything else, and any file a
/// worker could not read, is checked by `CheckRun` itself.
final class CheckPrefetch: @unchecked Sendable {
  struct Job {
    var argument: Int
    var path: String
    var format: any StructuredFormat
  }

  /// A file checked ahead: its bytes and findings.
  struct Checked {
    var bytes: [UInt8]
    var findings: [CheckFinding]
  }

  private let jobs: [Job]
  private let locale: LocaleTag?
  /// Whether the findings carry their quick fixes (SARIF writes them).
  private let withFixes: Bool
  /// The job of each command-line argument, if it has one.
  private let jobOfArgument: [Int: Int]
  private let lock = ConditionLock()
  private var results: [Checked?]
  private var done: [Bool]
  private var next = 0
  private var consumed = 0
  private let window: Int

  /// Starts `workers` threads (`check --jobs`) when there are two or more,
  /// and at least two of `arguments` are structured files; nil otherwise.
  static func start(
    arguments: [String], languageId: String?, locale: LocaleTag?, sourceLocale: String?,
    workers: Int = CheckRun.defaultJobs, withFixes: Bool = true
  ) -> CheckPrefetch? {
    guard workers >= 2, arguments.count >= 2 else { return nil }
    var jobs: [Job] = []
    for (index, argument) in arguments.enumerated() where argument != "-" {
      var info = stat()
      guard stat(argument, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
      let path = String(decoding: Array(argument.utf8), as: UTF8.self)
      guard !DocumentKind.needsContents(path: path),
        let format = DocumentKind.detect(languageId: languageId, path: path).structuredFormat,
        sourceLocale == nil || !(format is LocalizationFormat)
      else { continue }
      jobs.append(Job(argument: index, path: path, format: format))
    }
    guard jobs.count >= 2 else { return nil }
    let prefetch = CheckPrefetch(jobs, locale: locale, window: 2 * workers, withFixes: withFixes)
    for _ in 0..<min(workers, jobs.count) {
      guard startThread({ prefetch.work() }) else { return nil }
    }
    return prefetch
  }

  private init(_ jobs: [Job], locale: LocaleTag?, window: Int, withFixes: Bool) {
    self.jobs = jobs
    self.withFixes = withFixes
    self.locale = locale
    self.window = window
    results = Array(repeating: nil, count: jobs.count)
    done = Array(repeating: false, count: jobs.count)
    var jobOfArgument: [Int: Int] = [:]
    for (index, job) in jobs.enumerated() { jobOfArgument[job.argument] = index }
    self.jobOfArgument = jobOfArgument
  }

  /// What the workers found for argument `argument` (waiting for it), if it
  /// is a job and its file could be read; the path it was checked as.
  func take(argument: Int) -> (path: String, checked: Checked)? {
    guard let index = jobOfArgument[argument] else { return nil }
    return lock.withLock {
      lock.wait { done[index] }
      let checked = results[index]
      results[index] = nil
      consumed = max(consumed, index + 1)
      lock.broadcast()
      return checked.map { (jobs[index].path, $0) }
    }
  }

  private func work() {
    while true {
      let claimed: Int? = lock.withLock {
        lock.wait { next >= jobs.count || next < consumed + window }
        guard next < jobs.count else { return nil }
        next += 1
        return next - 1
      }
      guard let index = claimed else { return }
      let checked = check(jobs[index])
      lock.withLock {
        results[index] = checked
        done[index] = true
        lock.broadcast()
      }
    }
  }

  /// A job's file read and checked as `CheckRun.checkStructured` does; nil
  /// when it cannot be read or is binary (`CheckRun` then does it itself).
  private func check(_ job: Job) -> Checked? {
    let descriptor = open(job.path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var input = CheckInput(descriptor: descriptor)
    input.readAll()
    guard !input.readFailed else { return nil }
    let bytes = input.buffer
    guard !CheckRun.isBinary(bytes) else { return nil }
    let findings = StructuredCheck.findings(
      of: bytes, format: job.format, path: job.path, locale: locale, withFixes: withFixes)
    return Checked(bytes: bytes, findings: findings)
  }
}
