import Foundation
import XCTest

/// The examples of a CommonMark-style spec file (Debian's cmark-gfm
/// 0.29.0.gfm.6 source package: test/spec.txt, extensions.txt,
/// regression.txt), fetched by scripts/fetch-cmark-tests.sh into
/// .build/cmark-gfm-tests (or `$BIDI_CMARK_TESTS`); the spec is CC-BY-SA
/// and not committed.
struct SpecExample {
  /// 1-based, in file order, as cmark's spec_tests.py numbers them.
  var number: Int
  /// The extensions named after `example` (`table`, `autolink`, `disabled`…).
  var extensions: [String]
  var markdown: [UInt8]

  /// The folder with the test files.
  static var folder: URL {
    if let path = ProcessInfo.processInfo.environment["BIDI_CMARK_TESTS"] { return URL(fileURLWithPath: path) }
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(".build/cmark-gfm-tests")
  }

  /// The examples of `file` (e.g. "spec.txt").
  static func load(_ file: String) throws -> [SpecExample] {
    let url = folder.appendingPathComponent(file)
    guard let data = FileManager.default.contents(atPath: url.path) else {
      XCTFail("\(url.path) is missing: run scripts/fetch-cmark-tests.sh")
      return []
    }
    let fence = String(repeating: "`", count: 32)
    var examples: [SpecExample] = []
    var lines = String(decoding: data, as: UTF8.self).components(separatedBy: "\n")[...]
    while let line = lines.popFirst() {
      guard line.hasPrefix(fence + " example") else { continue }
      let extensions = line.dropFirst(fence.count + " example".count).split(separator: " ").map(String.init)
      var markdown: [String] = []
      while let next = lines.popFirst(), next != "." { markdown.append(next) }
      while let next = lines.popFirst(), next != fence {}
      let text = markdown.map { $0 + "\n" }.joined().replacingOccurrences(of: "\u{2192}", with: "\t")
      examples.append(SpecExample(number: examples.count + 1, extensions: extensions, markdown: Array(text.utf8)))
    }
    return examples
  }
}
