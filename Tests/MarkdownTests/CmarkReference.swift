import BidiTestSupport
import Foundation
import XCTest

@testable import Markdown

/// A leaf block with inline content, as a reader reports it for comparison:
/// its kind, its first and last source line (zero-based), its rendered text.
struct ComparableBlock: Hashable, CustomStringConvertible {
  var kind: String
  var firstLine: Int
  var lastLine: Int
  var text: String
  /// Ours only: a setext heading; the lines of the reference definitions
  /// read off the paragraph's or heading's front; for a header cell after a
  /// paragraph cmark-gfm split off, that paragraph's first line.
  var setext = false
  var definitionsBefore = 0
  var splitParagraphLine: Int? = nil

  var description: String { "\(kind) \(firstLine)-\(lastLine) \(text.debugDescription)" }

  /// True when `reference` (cmark-gfm's) is this block, allowing for three
  /// faults of cmark-gfm's sourcepos (its source lines, not its text):
  /// - a setext heading ends on the line after its underline (the line
  ///   that closes it), unless the underline is the document's last line;
  /// - a paragraph or setext heading that started with reference
  ///   definitions starts where the definitions start;
  /// - the paragraph cmark-gfm splits off before a table's header row has
  ///   no sourcepos, and the header cells are put on that paragraph's first
  ///   line.
  func agrees(with reference: ComparableBlock, lastLineOfDocument: Int) -> Bool {
    guard kind == reference.kind, text == reference.text else { return false }
    if reference.firstLine == -1 && reference.lastLine == -1 && kind == "paragraph" { return true }
    let first =
      reference.firstLine == firstLine || reference.firstLine == firstLine - definitionsBefore
      || (splitParagraphLine != nil && reference.firstLine == splitParagraphLine)
    let last =
      reference.lastLine == lastLine || (setext && reference.lastLine == min(lastLine + 1, lastLineOfDocument))
      || (splitParagraphLine != nil && reference.lastLine == splitParagraphLine)
    return first && last
  }
}

/// True when `ours` and `reference` are the same blocks (`agrees`).
func sameBlocks(_ ours: [ComparableBlock], _ reference: [ComparableBlock], lineCount: Int) -> Bool {
  ours.count == reference.count
    && zip(ours, reference).allSatisfy { $0.agrees(with: $1, lastLineOfDocument: max(0, lineCount - 1)) }
}

/// Debian's cmark-gfm, the independent reader the Markdown reader is
/// compared with: `cmark-gfm --sourcepos -t xml` with the four GFM
/// extensions, its XML read back into leaf blocks.
enum CmarkReference {
  static let arguments = [
    "--sourcepos", "-t", "xml", "-e", "table", "-e", "strikethrough", "-e", "tasklist", "-e", "autolink",
  ]

  /// The cmark-gfm executable, or nil when it is not installed.
  static let executable: String? = {
    for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
      let path = "\(folder)/cmark-gfm"
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
  }()

  /// cmark-gfm's leaf blocks of `markdown`: paragraphs, headings and table
  /// cells (without the empty cells it pads short rows with, which have no
  /// source), with their rendered text by `MarkdownInline`'s rules.
  static func blocks(_ markdown: [UInt8]) throws -> [ComparableBlock] {
    guard let executable else { throw XCTSkip("cmark-gfm is not installed (scripts/install-deps.sh)") }
    let result = try TestClient.run(executable, arguments: arguments, input: markdown, timeout: 60)
    guard result.status == 0 else { throw CmarkError.failed(result.standardError) }
    var reader = XMLReader(result.standardOutputBytes)
    return try reader.leafBlocks()
  }

  enum CmarkError: Error { case failed(String), malformedXML(String) }
}

/// Our reader's blocks of `source` in the same form.
func comparableBlocks(_ source: MarkdownSource, options: MarkdownReader.Options = .init(frontMatter: false))
  -> [ComparableBlock]
{
  let read = MarkdownReader(options: options).read(source)
  let renderer = MarkdownInlineRenderer(source: source, definitions: read.definitions)
  var result: [ComparableBlock] = []
  var definitionLines = 0
  var definitionsEnd = -1
  var splitParagraphLine: Int? = nil
  for block in read.blocks {
    let kind: String
    switch block.kind {
    case .linkReferenceDefinition:
      definitionLines =
        block.lines.lowerBound == definitionsEnd + 1 ? definitionLines + block.lines.count : block.lines.count
      definitionsEnd = block.lines.upperBound
      continue
    case .paragraph: kind = "paragraph"
    case .heading(let level): kind = "heading\(level)"
    case .tableCell: kind = "table_cell"
    default:
      continue
    }
    var comparable = ComparableBlock(
      kind: kind, firstLine: block.lines.lowerBound, lastLine: block.lines.upperBound,
      text: String(decoding: renderer.render(block).text, as: UTF8.self))
    if case .heading = block.kind {
      comparable.setext = block.pieces.last.map { $0.line != block.lines.upperBound } ?? false
    }
    if block.lines.lowerBound == definitionsEnd + 1 { comparable.definitionsBefore = definitionLines }
    switch block.kind {
    case .paragraph:
      splitParagraphLine = block.content == .pipesUnescaped ? block.lines.lowerBound : nil
    case .tableCell(let row, _, _):
      if row == 0 { comparable.splitParagraphLine = splitParagraphLine } else { splitParagraphLine = nil }
    default:
      splitParagraphLine = nil
    }
    result.append(comparable)
  }
  return result
}

/// Just enough XML for cmark's output: elements with attributes, text, the
/// five predefined entities and numeric references.
struct XMLReader {
  private let bytes: [UInt8]
  private var index = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  private struct Element {
    var name: String
    var attributes: [String: String]
  }

  /// Walks the document and collects paragraph, heading and table_cell
  /// elements with the text of their inline descendants.
  mutating func leafBlocks() throws -> [ComparableBlock] {
    var stack: [Element] = []
    var blocks: [ComparableBlock] = []
    var collecting: (depth: Int, element: Element)? = nil
    var text: [UInt8] = []
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "<") {
        if peek("<?") || peek("<!") {
          skip(past: ">")
          continue
        }
        let closing = peek("</")
        index += closing ? 2 : 1
        let name = readName()
        var attributes: [String: String] = [:]
        while true {
          skipSpaces()
          guard index < bytes.count else { throw CmarkReference.CmarkError.malformedXML("unclosed tag") }
          if bytes[index] == UInt8(ascii: ">") || bytes[index] == UInt8(ascii: "/") { break }
          let key = readName()
          skipSpaces()
          index += 1  // =
          skipSpaces()
          let quote = bytes[index]
          index += 1
          let start = index
          while bytes[index] != quote { index += 1 }
          attributes[key] = String(decoding: decode(bytes[start..<index]), as: UTF8.self)
          index += 1
        }
        let selfClosing = bytes[index] == UInt8(ascii: "/")
        skip(past: ">")
        if closing {
          stack.removeLast()
          if let leaf = collecting, leaf.depth == stack.count {
            blocks.append(try block(leaf.element, text))
            collecting = nil
          }
          continue
        }
        let element = Element(name: name, attributes: attributes)
        if collecting != nil {
          if name == "softbreak" { text += [0x20] }
          if name == "linebreak" { text += [0xE2, 0x80, 0xA8] }
        } else if ["paragraph", "heading", "table_cell"].contains(name) {
          text = []
          if selfClosing {
            blocks.append(try block(element, text))
            continue
          }
          collecting = (stack.count, element)
        }
        if !selfClosing { stack.append(element) }
      } else {
        let start = index
        while index < bytes.count && bytes[index] != UInt8(ascii: "<") { index += 1 }
        if collecting != nil, let name = stack.last?.name, name == "text" || name == "code" {
          text += decode(bytes[start..<index])
        }
      }
    }
    return blocks
  }

  private func block(_ element: Element, _ text: [UInt8]) throws -> ComparableBlock {
    let position = element.attributes["sourcepos"] ?? "0:0-0:0"
    let numbers = position.split(whereSeparator: { $0 == ":" || $0 == "-" }).compactMap { Int($0) }
    guard numbers.count == 4 else { throw CmarkReference.CmarkError.malformedXML("sourcepos \(position)") }
    var kind = element.name
    if kind == "heading" { kind += element.attributes["level"] ?? "?" }
    if kind == "table_cell" && numbers[1] == 0 { kind = "padding_cell" }
    return ComparableBlock(
      kind: kind, firstLine: numbers[0] - 1, lastLine: numbers[2] - 1, text: String(decoding: text, as: UTF8.self))
  }

  private func peek(_ literal: StaticString) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard index + count <= bytes.count else { return false }
    for k in 0..<count where bytes[index + k] != literal.utf8Start[k] { return false }
    return true
  }

  private mutating func skip(past literal: StaticString) {
    while index < bytes.count && !peek(literal) { index += 1 }
    index += literal.utf8CodeUnitCount
  }

  private mutating func skipSpaces() {
    while index < bytes.count && [0x20, 0x0A, 0x09, 0x0D].contains(bytes[index]) { index += 1 }
  }

  private mutating func readName() -> String {
    let start = index
    while index < bytes.count && !([0x20, 0x0A, 0x09, 0x0D, 0x3E, 0x2F, 0x3D] as [UInt8]).contains(bytes[index]) {
      index += 1
    }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  /// XML character and entity references.
  private func decode(_ raw: ArraySlice<UInt8>) -> [UInt8] {
    guard raw.contains(UInt8(ascii: "&")) else { return Array(raw) }
    var out: [UInt8] = []
    var k = raw.startIndex
    while k < raw.endIndex {
      guard raw[k] == UInt8(ascii: "&"), let semicolon = raw[k...].firstIndex(of: UInt8(ascii: ";")) else {
        out.append(raw[k])
        k += 1
        continue
      }
      let name = String(decoding: raw[(k + 1)..<semicolon], as: UTF8.self)
      let named = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"]
      if let value = named[name] {
        out += Array(value.utf8)
      } else if name.hasPrefix("#x"), let code = UInt32(name.dropFirst(2), radix: 16), let scalar = Unicode.Scalar(code)
      {
        out += Array(String(scalar).utf8)
      } else if name.hasPrefix("#"), let code = UInt32(name.dropFirst()), let scalar = Unicode.Scalar(code) {
        out += Array(String(scalar).utf8)
      } else {
        out += raw[k...semicolon]
      }
      k = semicolon + 1
    }
    return out
  }
}
