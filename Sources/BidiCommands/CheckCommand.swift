import BidiHazards
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

/// Runs `bidi-lsp check` with the arguments that follow `check`. Findings go
/// to `stdout`, errors to `stderr` (each call gets whole lines, ending in a
/// newline). Returns the exit status: 0 if nothing was found, 1 if any
/// hazard (invalid UTF-8 included) was found, 2 on a usage or I/O error
/// (files that can be read are still checked). Files are read in chunks and
/// scanned line by line, so a large file is never held in memory at once
/// (only its longest line). `renderer`, if given, adds each flagged line's
/// visual order to the messages.
package func runCheck(
  arguments: [String], stdout: (String) -> Void, stderr: (String) -> Void, renderer: VisualOrderRenderer? = nil
) -> Int32 {
  runCheck(
    arguments: arguments, output: { stdout(String(decoding: $0, as: UTF8.self)) }, stderr: stderr,
    visualOrder: renderer.map(HazardScanner.visualOrderWriter))
}

/// `runCheck` with the findings written as UTF-8 bytes to `output` (whole
/// lines), as the command line does: no conversion to a `String`, and the
/// visual order of the flagged lines from `visualOrder`, written as bytes.
/// `version`: the tool's, for the SARIF log.
package func runCheck(
  arguments: [String], output stdout: ([UInt8]) -> Void, stderr: (String) -> Void,
  visualOrder: VisualOrderWriter? = nil, version: String? = nil, partMinimum: Int = CheckRun.defaultPartMinimum,
  partOutputLimit: Int = CheckRun.defaultPartOutputLimit
) -> Int32 {
  var format = CheckRun.Format.text
  var language: SourceLanguage?? = nil
  var languageId: String? = nil
  var locale: LocaleTag? = nil
  var sourceLocale: String? = SourcePairing.defaultSourceLocale
  var paths: [String] = []
  var jobs = CheckRun.defaultJobs
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
      stdout(Array(checkUsage.utf8))
      return 0
    case "--no-source":
      sourceLocale = nil
    case "--format", "--language", "--locale", "--source-locale", "--jobs", "-j":
      if value == nil {
        guard k < arguments.count else { return usageError("\(name) needs a value") }
        value = arguments[k]
        k += 1
      }
      let given = value ?? ""
      if name == "--jobs" || name == "-j" {
        guard let count = Int(given), count > 0 else {
          return usageError("\(name) needs a number of jobs (1 or more), not '\(given)'")
        }
        jobs = count
      } else if name == "--format" {
        guard let chosen = CheckRun.Format(rawValue: given) else {
          return usageError("unknown format '\(given)' (use text, json or sarif)")
        }
        format = chosen
      } else if name == "--source-locale" {
        guard LocaleTag(given) != nil else {
          return usageError("unknown source locale '\(given)' (use a tag such as en, en-US, fr)")
        }
        sourceLocale = given
      } else if name == "--locale" {
        guard let tag = LocaleTag(given) else {
          return usageError("unknown locale '\(given)' (use a tag such as ar, he-IL, fa_IR)")
        }
        locale = tag
      } else if DocumentKind.isStructuredLanguageId(given) {
        languageId = given
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
      var run = CheckRun(
        format: format, language: language, languageId: languageId, locale: locale, visualOrder: visualOrder,
        stdout: stdout, stderr: stderr)
      run.toolVersion = version
      run.jobs = jobs
      run.partMinimum = partMinimum
      run.partOutputLimit = partOutputLimit
      run.sourceLocale = sourceLocale
      // The threads that scan plain text in parts, started when first used.
      run.workers = jobs > 1 ? PartWorkers(threads: jobs - 1) : nil
      run.begin()
      // Structured files named on the command line are checked ahead on
      // `--jobs` worker threads (`CheckPrefetch`), reported here in order.
      let prefetch = CheckPrefetch.start(
        arguments: paths, languageId: languageId, locale: locale, sourceLocale: sourceLocale, workers: jobs,
        withFixes: run.format == .sarif)
      for (index, path) in paths.enumerated() {
        run.prefetched = prefetch?.take(argument: index)
        run.check(argument: path)
        run.prefetched = nil
      }
      run.end()
      run.workers?.stop()
      if run.ioErrors > 0 { return 2 }
      return run.findings > 0 ? 1 : 0
    }
  }
}

/// One run of `check`: walks the arguments and streams the findings out.
struct CheckRun {
  enum Format: String {
    case text
    case json
    case sarif
  }

  static let binaryProbe = 8 * 1024
  /// `HazardScanner.visualOrderNote` around the visual order.
  static let visualOrderPrefix = Array(HazardScanner.visualOrderNoteStart.utf8)
  static let visualOrderSuffix = Array(HazardScanner.visualOrderNoteEnd.utf8)
  /// The severities' names (UTF-8), by `lspValue` from 1.
  static let severityNames = DiagnosticSeverity.allCases.sorted { $0.lspValue < $1.lspValue }.map {
    Array($0.rawValue.utf8)
  }
  static let skippedDirectories: Set<String> = [".git", ".hg", ".svn", ".bzr", "_darcs", "CVS", ".jj", ".pijul"]

  let format: Format
  /// The language forced by `--language` (`.some(nil)`: plain text).
  let language: SourceLanguage??
  /// The languageId of a structured format forced by `--language`, if any.
  let languageId: String?
  /// The locale forced by `--locale`.
  let locale: LocaleTag?
  /// Writes a flagged line's visual order for its messages (the scanners
  /// get no renderer: the note is written here, from bytes).
  let visualOrder: VisualOrderWriter?
  /// The note of the line being reported (`HazardScanner.visualOrderNote`)
  /// as written after each of its messages: its first `noteCount` bytes.
  /// `visualOrder` writes the visual order into it after
  /// `visualOrderPrefix`, which stays; the buffer never shrinks (so that it
  /// is not filled again for each line).
  var noteBuffer: [UInt8] = CheckRun.visualOrderPrefix
  var noteCount = 0
  /// How many threads scan a large plain-text file (`--jobs`), in parts of
  /// at least `partMinimum` bytes (`scanPlainParts`): this one and
  /// `workers`' (nil: one job, or a part's run).
  var jobs = 1
  var partMinimum = CheckRun.defaultPartMinimum
  var workers: PartWorkers?
  /// A part stops once its findings take this many bytes; this thread scans
  /// the rest of it when writing it (so that the findings held at once stay
  /// bounded whatever the text).
  var partOutputLimit = CheckRun.defaultPartOutputLimit
  static let defaultPartOutputLimit = 1 << 20
  /// Where a part's run collects what it writes (nil: the run of the file).
  var collector: PartCollector?
  /// `--jobs`' default: the processors online, at most 8.
  static let defaultJobs = max(1, min(8, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
  static let defaultPartMinimum = 1 << 16
  /// How much `scanPlainParts` reads before cutting parts, with several jobs.
  static let partBlock = 1 << 19
  /// The scanners' working storage, reused from line to line.
  var lineBuffers = HazardScanner.LineBuffers()
  /// Takes the findings' bytes (a part's collector in `scanPlainParts`).
  var write: ([UInt8]) -> Void
  let stderr: (String) -> Void
  /// Findings not yet passed to `write`: they go out in blocks of about
  /// `flushThreshold` bytes (and before any error message, to keep the order).
  var pending: [UInt8] = []
  /// Writes each JSON finding (ASCII-only), then moves it to `pending`.
  var jsonItem = JSONWriter(asciiOnly: true)
  /// The code points of the long line SARIF columns were last counted in.
  var sarifColumns = SARIFColumns()
  /// 64 KiB; a part's run (`scanPlainParts`) keeps its findings whole.
  var flushThreshold = 1 << 16
  /// The path being checked and its text-output form (computed once per file).
  /// (`display`: its UTF-8 and the colon after it.)
  var shownPath: (path: String, display: [UInt8]) = ("", [])
  var findings = 0
  var ioErrors = 0
  var filesChecked = 0
  var skipped: [String] = []
  var errors: [(path: String, message: String)] = []
  /// The tool's version, for the SARIF log.
  var toolVersion: String?
  /// The locale whose files are the sources of the others (nil: none).
  var sourceLocale: String?
  /// The source files read so far, by path.
  var sourceCatalogs: [String: SourceCatalog] = [:]
  /// The file being checked when a worker checked it ahead (`CheckPrefetch`).
  var prefetched: (path: String, checked: CheckPrefetch.Checked)?

  init(
    format: Format, language: SourceLanguage??, languageId: String?, locale: LocaleTag?,
    visualOrder: VisualOrderWriter?, stdout: @escaping ([UInt8]) -> Void, stderr: @escaping (String) -> Void
  ) {
    self.format = format
    self.language = language
    self.languageId = languageId
    self.locale = locale
    self.visualOrder = visualOrder
    self.write = stdout
    self.stderr = stderr
  }

  // The JSON document is streamed: its `findings` array one finding at a
  // time, then the other members. Values are written ASCII-only, so that a
  // bidi control in a path or message cannot reorder the report.

  mutating func begin() {
    if format == .json { stdout("{\"findings\":[\n") }
    if format == .sarif { beginSARIF() }
  }

  mutating func end() {
    defer { flush() }
    if format == .sarif { endSARIF() }
    guard format == .json else { return }
    let errors = self.errors.map { error -> JSONValue in
      ["path": .string(error.path), "message": .string(error.message)]
    }
    stdout(
      "\n],\n\"filesChecked\":\(filesChecked),\n\"findingCount\":\(findings),\n\"skipped\":"
        + Self.json(.array(skipped.map(JSONValue.string))) + ",\n\"errors\":" + Self.json(.array(errors)) + "}\n")
  }

  static func json(_ value: JSONValue) -> String {
    var writer = JSONWriter(asciiOnly: true)
    writer.value(value)
    return String(decoding: writer.text, as: UTF8.self)
  }

  mutating func fail(_ path: String, _ message: String) {
    ioErrors += 1
    errors.append((path, message))
    flush()
    stderr("bidi-lsp check: \(displayPath(path)): \(message)\n")
  }

  mutating func check(argument: String) {
    if argument == "-" {
      if let format = DocumentKind.detect(languageId: languageId, path: "").structuredFormat {
        checkStructured(CheckInput(descriptor: 0), path: "-", format: format)
      } else {
        checkStream(CheckInput(descriptor: 0), path: "-", pathLanguage: nil)
      }
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
    let detected = DocumentKind.detect(languageId: languageId, path: shown).structuredFormat
    if let format = detected ?? sniffed(descriptor, shown) {
      checkStructured(CheckInput(descriptor: descriptor), path: shown, format: format)
    } else {
      checkStream(CheckInput(descriptor: descriptor), path: shown, pathLanguage: SourceLanguage(path: shown))
    }
  }

  /// The format a file's first bytes tell, where its path alone cannot
  /// (`.ts`: Qt Linguist or TypeScript), read without moving the offset.
  func sniffed(_ descriptor: CInt, _ path: String) -> (any StructuredFormat)? {
    guard DocumentKind.needsContents(path: path) else { return nil }
    var head = [UInt8](repeating: 0, count: 4096)
    let count = head.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return nil }
    return DocumentKind.detect(languageId: languageId, path: path, contents: head[..<count]).structuredFormat
  }

  /// Checks a structured document (`StructuredCheck`): read whole, decoded
  /// by its byte order mark (a UTF-16 file, whose bytes hold NULs, is not
  /// binary), its findings the findings engine's.
  mutating func checkStructured(_ input: consuming CheckInput, path: String, format: any StructuredFormat) {
    if let ahead = prefetched, ahead.path == path {
      prefetched = nil
      filesChecked += 1
      let text = self.format == .sarif ? FindingText.file(DecodedFile(ahead.checked.bytes).text) : nil
      for finding in ahead.checked.findings { report(finding, path: path, text: text) }
      return
    }
    var input = input
    input.readAll()
    if input.readFailed {
      fail(path, errorText())
      return
    }
    let bytes = input.buffer
    if Self.isBinary(bytes) {
      skipped.append(path)
      return
    }
    filesChecked += 1
    // (For SARIF, the decoded text, whose code points count the columns.)
    let text = self.format == .sarif ? FindingText.file(DecodedFile(bytes).text) : nil
    let sources = StructuredCheck.sourceCatalog(
      path: path, format: format, sourceLocale: sourceLocale, cache: &sourceCatalogs)
    for finding in StructuredCheck.findings(
      of: bytes, format: format, path: path, locale: locale, sources: sources,
      runner: StructuredCheck.runner(jobs: jobs), withFixes: self.format == .sarif)
    {
      report(finding, path: path, text: text)
    }
  }

  /// Whether a structured file's bytes are binary (a NUL in its first
  /// bytes, unless it is UTF-16: its bytes hold NULs): it is skipped.
  static func isBinary(_ bytes: [UInt8]) -> Bool {
    !hasUTF16ByteOrderMark(bytes)
      && bytes.withUnsafeBytes { $0.count > 0 && memchr($0.baseAddress!, 0, min($0.count, binaryProbe)) != nil }
  }

  /// Whether `bytes` start with FF FE or FE FF: a UTF-16 file, which
  /// `DecodedFile` decodes (its NUL bytes do not make it binary).
  static func hasUTF16ByteOrderMark(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 2 && (bytes[0] == 0xFF && bytes[1] == 0xFE || bytes[0] == 0xFE && bytes[1] == 0xFF)
  }

  /// Checks one file or stream, its text scanned line by line. Plain text is
  /// scanned in one pass (`scanPlainLines`), a regular file after the
  /// clean-line scan up to its first hazard byte. A regular file in a
  /// language is read twice
  /// when it has a finding: first the clean-line scan (`HazardBytes`) over the
  /// whole file finds the last byte where a finding can start — none: the file
  /// is clean, and no line is tokenized —, then the lines up to that byte are
  /// scanned with their tokenizer state carried from the first line, exactly as
  /// a full scan does (the lines after it can have no finding). Other input
  /// (standard input, pipes) is scanned in one pass.
  mutating func checkStream(_ input: consuming CheckInput, path: String, pathLanguage: SourceLanguage?) {
    var input = input
    // Whether `input` is a UTF-16 file's conversion.
    var fromUTF16 = false
    while input.buffer.count < Self.binaryProbe && !input.atEnd { input.readMore() }
    if input.readFailed {
      fail(path, errorText())
      return
    }
    if Self.hasUTF16ByteOrderMark(input.buffer) {
      // A UTF-16 file (C#, PowerShell or a resource script saved as
      // "Unicode"): checked as its UTF-8 conversion, whose lines and
      // columns the findings give, as for localization files.
      input.readAll()
      if input.readFailed {
        fail(path, errorText())
        return
      }
      input = CheckInput(text: DecodedFile(input.buffer).utf8)
      fromUTF16 = true
    } else if input.buffer.prefix(Self.binaryProbe).contains(0) {
      skipped.append(path)
      return
    }
    filesChecked += 1
    let chosen: SourceLanguage? =
      switch language {
      case .some(let forced): forced
      case .none:
        pathLanguage ?? SourceLanguage(shebang: input.buffer.prefix(while: { $0 != 0x0A && $0 != 0x0D }))
      }
    if chosen == nil {
      // A clean file is read once, by the clean-line scan alone.
      if input.canRewind {
        guard input.firstHazardOffset() != nil else {
          if input.readFailed { fail(path, errorText()) }
          return
        }
        guard input.rewind() else {
          fail(path, errorText())
          return
        }
      }
      var scanner = HazardScanner(language: nil)
      scanner.recordsClosings = format == .sarif  // the closers of fixes, written in SARIF only
      scanner.readsUTF16Conversion = fromUTF16
      scanPlainLines(&input, scanner: scanner, path: path)
      return
    }
    var last = Int.max
    if input.canRewind {
      guard let found = input.lastHazardOffset() else {
        if input.readFailed { fail(path, errorText()) }
        return
      }
      guard input.rewind() else {
        fail(path, errorText())
        return
      }
      last = found
    }
    var scanner = HazardScanner(language: chosen)
    scanner.readsUTF16Conversion = fromUTF16
    scanLines(&input, scanner: scanner, path: path, through: last)
  }

  /// Scans the lines of `input` from its start, each in the state the line
  /// before it left, until the line that holds byte `last` (or the end).
  mutating func scanLines(_ input: inout CheckInput, scanner: HazardScanner, path: String, through last: Int) {
    var state = LexerState.initial
    var lineNumber = 0
    var lineStart = 0
    var scanFrom = 0
    while true {
      // Scan the complete lines in the buffer.
      let done: Bool
      (lineStart, scanFrom, done) = input.buffer.withUnsafeBufferPointer { p -> (Int, Int, Bool) in
        var start = lineStart
        var i = scanFrom
        guard let base = p.baseAddress else { return (start, p.count, false) }
        var breaks = ByteScan.LineBreakFinder(base, end: p.count)
        while i < p.count {
          i = breaks.next(from: i)
          guard i < p.count else { break }
          let b = p[i]
          if b == 0x0D, i + 1 == p.count, !input.atEnd { return (start, i, false) }  // maybe CR LF
          scanLine(
            scanner, UnsafeBufferPointer(rebasing: p[start..<i]), lineNumber: lineNumber, state: &state, path: path)
          lineNumber += 1
          if input.offset + i >= last { return (start, i, true) }
          i += (b == 0x0D && i + 1 < p.count && p[i + 1] == 0x0A) ? 2 : 1
          start = i
        }
        return (start, p.count, false)
      }
      if done { return }
      if input.atEnd {
        input.buffer.withUnsafeBufferPointer { p in
          scanLine(
            scanner, UnsafeBufferPointer(rebasing: p[lineStart...]), lineNumber: lineNumber, state: &state, path: path)
        }
        return
      }
      input.discard(lineStart)
      scanFrom -= lineStart
      lineStart = 0
      input.readOn()
      if input.readFailed {
        fail(path, errorText())
        return
      }
    }
  }

  /// Scans one line, which leaves `state` as the next line starts in, and
  /// reports its findings (left in `lineBuffers.diagnostics`), with the
  /// line's visual order at the end of each message when `scanLine` would
  /// give it. `found`: the controls of a well-formed line of plain text,
  /// found ahead (`ControlsAhead`; the line is not searched again).
  mutating func scanLine(
    _ scanner: HazardScanner, _ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, state: inout LexerState,
    found: (list: BidiControlList, range: Range<Int>, base: Int)? = nil, path: String
  ) {
    let showsVisualOrder =
      if let found {
        scanner.scanLineFindings(
          line, lineNumber: lineNumber, buffers: &lineBuffers, controls: found.list, in: found.range, base: found.base
        ).showsVisualOrder
      } else {
        scanner.scanLineFindings(line, lineNumber: lineNumber, state: &state, buffers: &lineBuffers).showsVisualOrder
      }
    guard !lineBuffers.diagnostics.isEmpty else { return }
    // Taken out of the buffers while they are written, and given back.
    var diagnostics: [HazardDiagnostic] = []
    swap(&diagnostics, &lineBuffers.diagnostics)
    defer { swap(&diagnostics, &lineBuffers.diagnostics) }
    var visualCount: Int? = nil
    if showsVisualOrder, let visualOrder {
      let start = Self.visualOrderPrefix.count
      let suffix = Self.visualOrderSuffix.count
      visualCount = visualOrder(line, &noteBuffer, start)
      if let visualCount {
        noteCount = start + visualCount + suffix
        if noteBuffer.count < noteCount {
          noteBuffer.append(contentsOf: repeatElement(0, count: noteCount - noteBuffer.count))
        }
        noteBuffer.withUnsafeMutableBufferPointer { note in
          for k in 0..<suffix { note[start + visualCount + k] = Self.visualOrderSuffix[k] }
        }
      }
    }
    if format == .text {
      // Written from the diagnostics in place (no copy of each).
      if shownPath.path != path { shownPath = (path, Array((displayPath(path) + ":").utf8)) }
      // (Through a buffer pointer: each message read from the array was
      // retained and released around its write.)
      diagnostics.withUnsafeBufferPointer { diagnostics in
        for k in diagnostics.indices {
          findings += 1
          let (line, column) = (diagnostics[k].line + 1, diagnostics[k].range.lowerBound + 1)
          let (severity, code) = (diagnostics[k].severity, diagnostics[k].code)
          // (The stored properties read in place: a method of the
          // diagnostic, from another module, would copy it.)
          if let sentence = diagnostics[k].sentence, let control = diagnostics[k].control {
            writeText(
              line: line, column: column, severity: severity, code: code, message: sentence.utf8(control),
              withNote: visualCount != nil)
          } else {
            writeText(
              line: line, column: column, severity: severity, code: code, message: diagnostics[k].message,
              withNote: visualCount != nil)
          }
        }
      }
    } else {
      // The note as a `String` only for JSON, whose writer takes one.
      let note = visualCount.map { _ in String(decoding: noteBuffer[..<noteCount], as: UTF8.self) }
      for diagnostic in diagnostics {
        var message = diagnostic.message
        if let note { message += (message.hasSuffix(".") ? "" : ".") + note }
        report(
          CheckFinding(
            line: diagnostic.line, column: diagnostic.range.lowerBound, length: diagnostic.range.count,
            severity: diagnostic.severity, code: diagnostic.code, message: message,
            fixes: format == .sarif ? diagnostic.fixes.map(CheckFix.init) : []), path: path,
          text: .line(number: lineNumber, bytes: line))
      }
    }
  }

}

/// A path as text (invalid UTF-8 shown as U+FFFD).
private func display(_ path: [UInt8]) -> String {
  String(decoding: path, as: UTF8.self)
}

private func withCPath<R>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
  var cString = path.map { CChar(bitPattern: $0) }
  cString.append(0)
  return body(cString)
}

private func errorText() -> String {
  String(cString: strerror(errno))
}
