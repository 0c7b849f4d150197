import BidiHazards
import JSONRPC
import UnicodeBidi

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The usage text of `bidi-lsp check`.
public let checkUsage = """
  usage: bidi-lsp check [--format text|json] [--language ID] [--] FILE|DIR|- ...

  Reports bidi hazards (Trojan Source, CVE-2021-42574) as
  path:line:column: severity: message [code]
  with 1-based lines and 1-based columns counted in UTF-8 bytes.
  Directories are walked (version-control folders skipped); binary files
  (a NUL byte in the first 8 KiB) are skipped; '-' reads standard input.
  The language of each file comes from its name or #! line, or --language
  (an LSP languageId, or 'plaintext' for whole-line rules only).

  Exit status: 0 no hazard, 1 hazards found, 2 usage or I/O error.

  """

/// Runs `bidi-lsp check` with the arguments that follow `check`. Findings go
/// to `stdout`, errors to `stderr` (each call gets whole lines, ending in a
/// newline). Returns the exit status: 0 if nothing was found, 1 if any
/// hazard (invalid UTF-8 included) was found, 2 on a usage or I/O error
/// (files that can be read are still checked). Files are read in chunks and
/// scanned line by line, so a large file is never held in memory at once
/// (only its longest line). `renderer`, if given, adds each flagged line's
/// visual order to the messages.
public func runCheck(
  arguments: [String], stdout: (String) -> Void, stderr: (String) -> Void, renderer: VisualOrderRenderer? = nil
) -> Int32 {
  var format = CheckRun.Format.text
  var language: SourceLanguage?? = nil
  var paths: [String] = []
  var options = true
  var k = 0
  func usageError(_ message: String) -> Int32 {
    stderr("bidi-lsp check: \(message)\n" + checkUsage)
    return 2
  }
  while k < arguments.count {
    let argument = arguments[k]
    k += 1
    guard options, argument.hasPrefix("-"), argument != "-" else {
      paths.append(argument)
      continue
    }
    var value: String? = nil
    var name = argument
    if let equals = argument.firstIndex(of: "=") {
      name = String(argument[..<equals])
      value = String(argument[argument.index(after: equals)...])
    }
    switch name {
    case "--":
      options = false
    case "-h", "--help":
      stdout(checkUsage)
      return 0
    case "--format", "--language":
      if value == nil {
        guard k < arguments.count else { return usageError("\(name) needs a value") }
        value = arguments[k]
        k += 1
      }
      let given = value ?? ""
      if name == "--format" {
        guard let chosen = CheckRun.Format(rawValue: given) else {
          return usageError("unknown format '\(given)' (use text or json)")
        }
        format = chosen
      } else if given == "plaintext" || given == "text" {
        language = .some(nil)
      } else if let chosen = SourceLanguage(languageId: given) {
        language = .some(chosen)
      } else {
        return usageError("unknown language '\(given)'")
      }
    default:
      return usageError("unknown option '\(argument)'")
    }
  }
  guard !paths.isEmpty else { return usageError("no files given") }
  return withoutActuallyEscaping(stdout) { stdout in
    withoutActuallyEscaping(stderr) { stderr in
      var run = CheckRun(format: format, language: language, renderer: renderer, stdout: stdout, stderr: stderr)
      run.begin()
      for path in paths { run.check(argument: path) }
      run.end()
      if run.ioErrors > 0 { return 2 }
      return run.findings > 0 ? 1 : 0
    }
  }
}

/// One run of `check`: walks the arguments and streams the findings out.
private struct CheckRun {
  enum Format: String {
    case text
    case json
  }

  static let chunkSize = 64 * 1024
  static let binaryProbe = 8 * 1024
  static let skippedDirectories: Set<String> = [".git", ".hg", ".svn", ".bzr", "_darcs", "CVS", ".jj", ".pijul"]

  let format: Format
  /// The language forced by `--language` (`.some(nil)`: plain text).
  let language: SourceLanguage??
  let renderer: VisualOrderRenderer?
  let stdout: (String) -> Void
  let stderr: (String) -> Void
  var findings = 0
  var ioErrors = 0
  var filesChecked = 0
  var skipped: [String] = []
  var errors: [(path: String, message: String)] = []

  init(
    format: Format, language: SourceLanguage??, renderer: VisualOrderRenderer?,
    stdout: @escaping (String) -> Void, stderr: @escaping (String) -> Void
  ) {
    self.format = format
    self.language = language
    self.renderer = renderer
    self.stdout = stdout
    self.stderr = stderr
  }

  // The JSON document is streamed: its `findings` array one finding at a
  // time, then the other members. Values are written ASCII-only, so that a
  // bidi control in a path or message cannot reorder the report.

  func begin() {
    if format == .json { stdout("{\"findings\":[\n") }
  }

  func end() {
    guard format == .json else { return }
    let errors = self.errors.map { error -> JSONValue in
      ["path": .string(error.path), "message": .string(error.message)]
    }
    stdout(
      "\n],\n\"filesChecked\":\(filesChecked),\n\"findingCount\":\(findings),\n\"skipped\":"
        + Self.json(.array(skipped.map(JSONValue.string))) + ",\n\"errors\":" + Self.json(.array(errors)) + "}\n")
  }

  static func json(_ value: JSONValue) -> String {
    String(decoding: value.encoded(asciiOnly: true), as: UTF8.self)
  }

  mutating func fail(_ path: String, _ message: String) {
    ioErrors += 1
    errors.append((path, message))
    stderr("bidi-lsp check: \(displayPath(path)): \(message)\n")
  }

  mutating func check(argument: String) {
    if argument == "-" {
      checkStream(descriptor: 0, path: "-", pathLanguage: nil)
      return
    }
    let path = Array(argument.utf8)
    var info = stat()
    guard withCPath(path, { stat($0, &info) }) == 0 else {
      fail(argument, errorText())
      return
    }
    if info.st_mode & S_IFMT == S_IFDIR {
      walk(path)
    } else {
      checkFile(path)
    }
  }

  mutating func walk(_ directory: [UInt8]) {
    guard let handle = withCPath(directory, { opendir($0) }) else {
      fail(display(directory), errorText())
      return
    }
    var names: [[UInt8]] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        Array(raw.prefix(while: { $0 != 0 }))
      }
      if name == [0x2E] || name == [0x2E, 0x2E] { continue }
      names.append(name)
    }
    closedir(handle)
    names.sort { $0.lexicographicallyPrecedes($1) }
    let prefix = directory.last == 0x2F ? directory : directory + [0x2F]
    for name in names {
      let child = prefix + name
      var info = stat()
      guard withCPath(child, { lstat($0, &info) }) == 0 else {
        fail(display(child), errorText())
        continue
      }
      switch info.st_mode & S_IFMT {
      case S_IFDIR:
        if !Self.skippedDirectories.contains(String(decoding: name, as: UTF8.self)) { walk(child) }
      case S_IFREG:
        checkFile(child)
      case S_IFLNK:
        // Follow links to files; never links to directories (no cycles).
        if withCPath(child, { stat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFREG { checkFile(child) }
      default:
        break
      }
    }
  }

  mutating func checkFile(_ path: [UInt8]) {
    let shown = display(path)
    let descriptor = withCPath(path) { open($0, O_RDONLY) }
    guard descriptor >= 0 else {
      fail(shown, errorText())
      return
    }
    defer { close(descriptor) }
    checkStream(descriptor: descriptor, path: shown, pathLanguage: SourceLanguage(path: shown))
  }

  mutating func checkStream(descriptor: Int32, path: String, pathLanguage: SourceLanguage?) {
    var buffer: [UInt8] = []
    buffer.reserveCapacity(Self.chunkSize * 2)
    var atEnd = false
    var readFailed = false
    func readMore() {
      let old = buffer.count
      buffer.append(contentsOf: repeatElement(0, count: Self.chunkSize))
      var got = -1
      while true {
        got = buffer.withUnsafeMutableBytes { raw in
          read(descriptor, raw.baseAddress.map { $0 + old }, Self.chunkSize)
        }
        if got < 0 && errno == EINTR { continue }
        break
      }
      if got <= 0 {
        buffer.removeSubrange(old...)
        atEnd = true
        readFailed = got < 0
      } else {
        buffer.removeSubrange((old + got)...)
      }
    }
    while buffer.count < Self.binaryProbe && !atEnd { readMore() }
    if readFailed {
      fail(path, errorText())
      return
    }
    if buffer.prefix(Self.binaryProbe).contains(0) {
      skipped.append(path)
      return
    }
    filesChecked += 1
    let chosen: SourceLanguage? =
      switch language {
      case .some(let forced): forced
      case .none: pathLanguage ?? SourceLanguage(shebang: buffer.prefix(while: { $0 != 0x0A && $0 != 0x0D }))
      }
    let scanner = HazardScanner(language: chosen, renderer: renderer)
    var state = LexerState.initial
    var lineNumber = 0
    var lineStart = 0
    var scanFrom = 0
    while true {
      // Scan the complete lines in the buffer.
      let (consumed, resume) = buffer.withUnsafeBufferPointer { p -> (Int, Int) in
        var start = lineStart
        var i = scanFrom
        while i < p.count {
          let b = p[i]
          if b == 0x0A || b == 0x0D {
            if b == 0x0D, i + 1 == p.count, !atEnd { return (start, i) }  // maybe CR LF
            let scan = scanner.scanLine(
              UnsafeBufferPointer(rebasing: p[start..<i]), lineNumber: lineNumber, state: state)
            report(scan.diagnostics, path: path)
            state = scan.endState
            lineNumber += 1
            i += (b == 0x0D && i + 1 < p.count && p[i + 1] == 0x0A) ? 2 : 1
            start = i
            continue
          }
          i += 1
        }
        return (start, i)
      }
      if atEnd {
        buffer.withUnsafeBufferPointer { p in
          let scan = scanner.scanLine(
            UnsafeBufferPointer(rebasing: p[consumed...]), lineNumber: lineNumber, state: state)
          report(scan.diagnostics, path: path)
        }
        break
      }
      buffer.removeSubrange(0..<consumed)
      lineStart = 0
      scanFrom = resume - consumed
      readMore()
      if readFailed {
        fail(path, errorText())
        return
      }
    }
  }

  mutating func report(_ diagnostics: [HazardDiagnostic], path: String) {
    for diagnostic in diagnostics {
      findings += 1
      let line = diagnostic.line + 1
      let column = diagnostic.range.lowerBound + 1
      switch format {
      case .text:
        stdout(
          "\(displayPath(path)):\(line):\(column): \(diagnostic.severity.rawValue): \(diagnostic.message) [\(diagnostic.code.rawValue)]\n"
        )
      case .json:
        let item: JSONValue = [
          "path": .string(path), "line": JSONValue(line), "column": JSONValue(column),
          "length": JSONValue(diagnostic.range.count), "severity": .string(diagnostic.severity.rawValue),
          "code": .string(diagnostic.code.rawValue), "message": .string(diagnostic.message),
        ]
        stdout((findings > 1 ? ",\n" : "") + Self.json(item))
      }
    }
  }
}

/// A path as text (invalid UTF-8 shown as U+FFFD).
private func display(_ path: [UInt8]) -> String {
  String(decoding: path, as: UTF8.self)
}

/// A path for text output: bidi and other control characters in it are
/// written as `\u{202E}` so that they cannot reorder the report itself.
private func displayPath(_ path: String) -> String {
  var out = ""
  for scalar in path.unicodeScalars {
    if scalar.value < 0x20 || scalar.value == 0x7F || BidiControl(scalar: scalar.value) != nil {
      out += "\\u{" + hex4(scalar.value) + "}"
    } else {
      out.unicodeScalars.append(scalar)
    }
  }
  return out
}

private func withCPath<R>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
  var cString = path.map { CChar(bitPattern: $0) }
  cString.append(0)
  return body(cString)
}

private func errorText() -> String {
  String(cString: strerror(errno))
}
