import UnicodeBidi

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `bidi-lsp visual` (Protocol/specification.md, “The command line”): prints
/// each line of a file (or standard input) in visual order, left to right,
/// with mirrored glyphs and, on a terminal, Arabic letters joined
/// (`ArabicShaping`), like the `fribidi` tool. Lines end at LF, CR LF or
/// CR (written back as LF); a line holding several paragraphs (U+2029 …)
/// has each reordered by itself. It streams in bounded memory: input is
/// read in blocks into a buffer that holds one line at most, a line longer
/// than `--max-paragraph` is reordered paragraph by paragraph, and a single
/// paragraph longer than that is refused (exit 2).
package enum VisualCommand {
  package static let usage = """
    Usage: bidi-lsp visual [OPTIONS] [FILE|-]
    Prints each line of FILE (or standard input) in visual order, left to
    right, with mirrored glyphs (UAX #9) and, on a terminal, Arabic letters
    joined, for terminals and scripts.

    Options:
      --direction auto|ltr|rtl     paragraph direction; auto (default): the
                                   first strong character, else left to right
      --combining-marks after-base|resolved
                                   after-base (default): each combining mark
                                   follows its letter, as terminals draw them
                                   (UAX #9 L3); resolved: where L2 leaves them
      --controls strip|keep|names  bidi controls: strip (default) drops them
                                   all; keep drops only those X9 removes
                                   (embeddings, overrides, PDF) and keeps
                                   isolates and marks; names writes each as
                                   [RLO], [LRI], [RLM]...
      --shape[=auto|always|never]  join Arabic letters into the Arabic
                                   Presentation Forms (lam-alef ligatures
                                   included), as a terminal that does not
                                   shape needs; auto (default): when standard
                                   output is a terminal, not into a pipe or
                                   a file; --shape alone: always
      --no-shape                   never join (a terminal that shapes itself)
      --width N                    right-align right-to-left lines to N
                                   terminal columns (no padding by default)
      --document                   print the rendered paragraphs of a subtitle,
                                   Markdown or localization FILE (cue lines,
                                   blocks, values: markup left out, references
                                   decoded), one per line, instead of its lines
      --max-paragraph BYTES        refuse a paragraph longer than BYTES
                                   (default 4194304), exit 2
      -h, --help                   print this help

    Exit status: 0, or 2 on usage or I/O errors and refused paragraphs.

    """

  /// Runs the command; returns the exit status (0, or 2 on usage or I/O
  /// errors and refused paragraphs).
  package static func run(arguments: [String], stdout: Int32 = STDOUT_FILENO, stderr: Int32 = STDERR_FILENO) -> Int32 {
    var parsed: (options: VisualOptions, path: String?, help: Bool)
    do throws(UsageError) {
      parsed = try VisualOptions.parse(arguments)
    } catch {
      write(stderr, "bidi-lsp visual: \(error.message)\n\n" + usage)
      return 2
    }
    if parsed.help {
      write(stdout, usage)
      return 0
    }
    parsed.options.resolveShaping(outputIsTerminal: isatty(stdout) == 1)
    if parsed.options.document {
      guard let path = parsed.path, path != "-" else {
        write(stderr, "bidi-lsp visual: --document needs a FILE\n\n" + usage)
        return 2
      }
      return VisualDocument.run(path: path, options: parsed.options, stdout: stdout, stderr: stderr)
    }
    let input: Int32
    if let path = parsed.path, path != "-" {
      input = open(path, O_RDONLY)
      if input < 0 {
        write(stderr, "bidi-lsp visual: cannot open \(path): \(String(cString: strerror(errno)))\n")
        return 2
      }
    } else {
      input = STDIN_FILENO
    }
    defer { if input != STDIN_FILENO { close(input) } }
    var stream = VisualStream(options: parsed.options, input: input, output: stdout)
    if let message = stream.run() {
      write(stderr, "bidi-lsp visual: \(message)\n")
      return 2
    }
    return 0
  }

  static func write(_ fd: Int32, _ text: String) {
    var buffer = OutputBuffer(fd: fd, capacity: 4096)
    buffer.append(text: text)
    _ = buffer.flush()
  }
}

/// The read–render–write loop of `bidi-lsp visual`.
struct VisualStream: ~Copyable {
  let options: VisualOptions
  let input: Int32
  var output: OutputBuffer
  var renderer: VisualLineRenderer
  /// The input bytes `start..<end` of `buffer` are read and not yet written.
  var buffer: UnsafeMutablePointer<UInt8>
  var capacity: Int
  var start = 0
  var end = 0
  /// `start..<searched` holds no line terminator.
  var searched = 0
  var atEnd = false
  /// The last line ended with a CR at the end of the buffer: an LF that
  /// starts the next read belongs to it.
  var skipLineFeed = false
  /// The current line's number (1-based) and whether part of it, whole
  /// paragraphs, was already written.
  var lineNumber = 1
  var lineStarted = false

  /// Bytes per read: small enough to stay in the cache while scanned.
  static let block = 1 << 17
  /// The first size of the input buffer and the size of the output's: a
  /// few blocks, so that fewer fresh pages are faulted in (each costs a
  /// page clear) and the buffers stay nearer the cache.
  static let buffered = 1 << 18

  init(options: VisualOptions, input: Int32, output fd: Int32) {
    self.options = options
    self.input = input
    output = OutputBuffer(fd: fd, capacity: Self.buffered)
    renderer = VisualLineRenderer(options: options)
    capacity = min(Self.buffered, options.maximumParagraph + 1)
    capacity = max(capacity, min(Self.block, options.maximumParagraph + 1))
    buffer = Self.allocate(capacity)
  }

  /// Page-aligned memory for the input.
  static func allocate(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
    UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 4096).bindMemory(
      to: UInt8.self, capacity: capacity)
  }

  deinit { buffer.deallocate() }

  /// Runs to the end of the input; returns the error message, if any.
  mutating func run() -> String? {
    while true {
      writeCompleteLines()
      if atEnd {
        if start < end || lineStarted { writeLine(start..<end) }
        return output.flush() ? nil : "write error: \(String(cString: strerror(errno)))"
      }
      if start > 0 {
        // The partial line moves to end at a page boundary, so that reads
        // land on page-aligned memory (the kernel copies those fastest).
        let held = end - start
        let to = held <= capacity - Self.block ? (held + 4095) & ~4095 - held : 0
        (buffer + to).update(from: buffer + start, count: held)
        searched = to + max(0, searched - start)
        start = to
        end = to + held
      }
      if end == capacity {
        let limit = options.maximumParagraph + 1
        if capacity < limit {
          grow(to: min(limit, capacity * 2))
        } else if let message = writeLeadingParagraphs() {
          _ = output.flush()
          return message
        }
      }
      if let message = fill() { return message }
      if output.failed { return "write error: \(String(cString: strerror(errno)))" }
    }
  }

  /// Writes every line of the buffer that has its terminator.
  mutating func writeCompleteLines() {
    // Printable ASCII lines in a paragraph not forced right to left are
    // their own visual order: a run of them is written straight from the
    // input buffer.
    let copiesPlainText = options.direction != .rightToLeft
    while start < end {
      if copiesPlainText && !lineStarted {
        let (plainEnd, lineFeeds) = ByteScan.plainTextPrefix(buffer, from: start, to: end)
        if lineFeeds > 0 {
          var through = plainEnd
          while buffer[through - 1] != 0x0A { through -= 1 }
          output.write(buffer + start, count: through - start)
          start = through
          lineNumber += lineFeeds
          continue
        }
      }
      let from = buffer + max(start, searched)
      let count = end - max(start, searched)
      // The first LF or CR: memchr for each, the CR search only up to the LF.
      let lf = memchr(from, 0x0A, count).map { $0.assumingMemoryBound(to: UInt8.self) - buffer }
      let crLimit = (lf ?? end) - max(start, searched)
      let cr = crLimit > 0 ? memchr(from, 0x0D, crLimit).map { $0.assumingMemoryBound(to: UInt8.self) - buffer } : nil
      guard let lineEnd = cr ?? lf else {
        searched = end
        return
      }
      if buffer[lineEnd] == 0x0D && lineEnd + 1 == end && !atEnd {
        // CR LF split across reads: the LF comes with the next read.
        skipLineFeed = true
      }
      writeLine(start..<lineEnd)
      start = lineEnd + 1
      if buffer[lineEnd] == 0x0D && start < end && buffer[start] == 0x0A { start += 1 }
    }
  }

  /// Writes one line (its bytes without the terminator) and a newline,
  /// right-aligned if asked and possible.
  mutating func writeLine(_ range: Range<Int>) {
    let line = UnsafeBufferPointer(start: buffer + range.lowerBound, count: range.count)
    let pad = lineStarted ? 0 : (options.width ?? 0)
    output.reserve(VisualLineRenderer.outputBound(line.count) + pad + 1)
    let lineStart = output.count
    let level = renderer.render(line, into: &output)
    // A line that shows nothing is not padded (as fribidi does).
    if let width = options.width, level & 1 == 1, !lineStarted, output.count > lineStart {
      let written = UnsafeBufferPointer(start: output.base + lineStart, count: output.count - lineStart)
      let columns = TerminalColumns.count(written)
      if columns < width {
        let padding = width - columns
        (output.base + lineStart + padding).update(from: output.base + lineStart, count: written.count)
        (output.base + lineStart).update(repeating: 0x20, count: padding)
        output.count += padding
      }
    }
    output.append(0x0A)
    lineNumber += 1
    lineStarted = false
  }

  /// The buffer is full with part of one line: writes its paragraphs up to
  /// the last paragraph separator, or refuses the line.
  mutating func writeLeadingParagraphs() -> String? {
    let held = UnsafeBufferPointer(start: buffer + start, count: end - start)
    guard let found = ParagraphSeparator.lastEnd(held) else {
      return
        "line \(lineNumber): a paragraph longer than \(options.maximumParagraph) bytes (--max-paragraph); not reordered, stopped"
    }
    output.reserve(VisualLineRenderer.outputBound(found))
    _ = renderer.render(UnsafeBufferPointer(start: buffer + start, count: found), into: &output)
    lineStarted = true
    let cut = start + found
    buffer.update(from: buffer + cut, count: end - cut)
    end -= cut
    start = 0
    searched = end
    return nil
  }

  mutating func grow(to newCapacity: Int) {
    let grown = Self.allocate(newCapacity)
    grown.update(from: buffer + start, count: end - start)
    buffer.deallocate()
    buffer = grown
    end -= start
    searched = max(0, searched - start)
    start = 0
    capacity = newCapacity
  }

  /// Reads the next block; returns the error message, if any.
  mutating func fill() -> String? {
    while true {
      let count = read(input, buffer + end, min(capacity - end, Self.block))
      if count < 0 {
        if errno == EINTR { continue }
        return "read error: \(String(cString: strerror(errno)))"
      }
      if count == 0 {
        atEnd = true
        return nil
      }
      if skipLineFeed {
        skipLineFeed = false
        if buffer[end] == 0x0A {
          buffer.update(from: buffer + end + 1, count: count - 1)
          end += count - 1
          return nil
        }
      }
      end += count
      return nil
    }
  }
}
