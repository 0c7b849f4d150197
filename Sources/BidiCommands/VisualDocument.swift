import DocumentFormats
import StructuredText
import UnicodeBidi

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `bidi-lsp visual --document FILE` (contract §8): the rendered paragraphs
/// of a structured document (a subtitle file's cue lines, a Markdown file's
/// blocks, a localization file's values) as its readers see them — markup
/// left out, references decoded — one per output line, in visual order,
/// each in its own direction (`--direction` forces one: `ltr` shows what a
/// player that lays every line out left to right shows). A file of no
/// structured kind is refused.
enum VisualDocument {
  static func run(path: String, options: VisualOptions, stdout: Int32, stderr: Int32) -> Int32 {
    guard let format = DocumentKind.detect(languageId: nil, path: path).structuredFormat else {
      VisualCommand.write(
        stderr, "bidi-lsp visual: --document needs a subtitle, Markdown or localization file, not \(path)\n")
      return 2
    }
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else {
      VisualCommand.write(stderr, "bidi-lsp visual: cannot open \(path): \(String(cString: strerror(errno)))\n")
      return 2
    }
    defer { close(descriptor) }
    var input = CheckInput(descriptor: descriptor)
    input.readAll()
    if input.readFailed {
      VisualCommand.write(stderr, "bidi-lsp visual: cannot read \(path): \(String(cString: strerror(errno)))\n")
      return 2
    }
    let read = WholeRead(DecodedFile(input.buffer).text, format: format)
    var output = ""
    for entry in read.entries {
      for paragraph in entry.paragraphs.indices {
        let analysis = ParagraphAnalysis(entry, paragraph: paragraph)
        let scalars = analysis.written.scalars
        guard scalars.count <= options.maximumParagraph else {
          VisualCommand.write(
            stderr, "bidi-lsp visual: a paragraph at line \(analysis.range.start.line + 1) is too long\n")
          return 2
        }
        let line = BidiParagraph(scalars: scalars, direction: options.direction).line(
          combiningMarks: options.combiningMarks)
        output += line.visualText(controls: options.controls) + "\n"
      }
      if output.utf8.count >= 1 << 16 {
        VisualCommand.write(stdout, output)
        output = ""
      }
    }
    VisualCommand.write(stdout, output)
    if let error = read.error {
      VisualCommand.write(
        stderr,
        "bidi-lsp visual: \(path):\(error.position.line + 1): \(error.message); the lines after it are not shown\n")
    }
    return 0
  }
}
