import BidiMarks
import BidiTestSupport
import Foundation
import StructuredText
import UnicodeBidi
import XCTest

@testable import Localization

/// The corpus read by parsers that are not this library's
/// (`scripts/l10n-check`: Python's json, plistlib and expat, gettext's
/// `msgfmt --check` and compiled catalog, reference readers for `.strings`
/// and `.properties`), in one Python process for all files:
/// - each corpus file: the same keys and decoded texts as the library reads
///   (malformed files: rejected by both);
/// - each file after every insertMarks mode and every quick fix: the same
///   keys, values equal once the bidi controls are removed; and the library,
///   asked again, plans no edits (the fix's finding is gone).
final class IndependentParserTests: XCTestCase {
  enum Mode: String, CaseIterable {
    case directionLTR, directionRTL, placeholdersIsolate, placeholdersMarks, runs, stripAll, stripUnpaired
    /// Mode `isolate` over the whole text of each one-paragraph value
    /// (those it can wrap: not one opening with markup or holding an
    /// unpaired control, which it refuses).
    case isolateValue
  }

  static func plan(_ mode: Mode, _ values: [TextEntry], spelling: MarkSpelling, rtl: (TextEntry) -> Bool)
    -> [SourceEdit]
  {
    var edits: [SourceEdit] = []
    for value in values {
      let planner = EntryPlanner(value, spelling: spelling)
      let direction: BidiDirection = rtl(value) ? .rightToLeft : .leftToRight
      switch mode {
      case .directionLTR: edits += planner.directionEdits(.leftToRight)
      case .directionRTL: edits += planner.directionEdits(.rightToLeft)
      case .placeholdersIsolate: edits += planner.placeholderEdits(style: .isolate)
      case .placeholdersMarks: edits += planner.placeholderEdits(style: .marks, directions: [direction])
      case .runs: edits += planner.runEdits(directions: [direction])
      case .stripAll: edits += planner.stripEdits(.all)
      case .stripUnpaired: edits += planner.stripEdits(.unpaired)
      case .isolateValue:
        guard !value.isBranch, value.paragraphs.count == 1, !value.text.isEmpty else { continue }
        edits += (try? planner.isolateEdits(value.range)) ?? []
      }
    }
    return edits
  }

  struct Job {
    var id: String
    var line: String
  }

  func testCorpusThroughIndependentParsers() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bidi-l10n-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var jobs: [String] = []
    var libraryValues: [String: [String]] = [:]
    var malformed: Set<String> = []
    var unordered: Set<String> = []
    var compared: [String: String] = [:]  // job → what it checks
    var editCount = 0
    let paths = try Corpus.paths()
    for (fileIndex, path) in paths.enumerated() {
      let file = try Corpus.File(path)
      let original = Corpus.root.appendingPathComponent(path).path
      // The source-pairing cases whose placeholders differ from their
      // msgids on purpose (which msgfmt --check rejects): gettext's parser alone.
      let reference = file.format == .po && path.hasPrefix("pairing/") ? "po-lenient" : file.format.rawValue
      jobs.append("read\t\(path)\t\(reference)\t\(original)")
      libraryValues[path] = Self.comparable(file.read.values, format: file.format)
      if file.format == .po { unordered.insert(path) }
      let rtl = { (value: TextEntry) in file.locale(of: value)?.isRightToLeft ?? false }
      var plans: [(name: String, edits: [SourceEdit], again: (LocalizationReadResult, String) -> Bool)] = []
      for mode in Mode.allCases {
        plans.append(
          (
            mode.rawValue, Self.plan(mode, file.read.values, spelling: file.spelling, rtl: rtl),
            { reread, _ in
              Self.plan(
                mode, reread.values, spelling: file.format.spelling(SpellingVotes(reread.values)), rtl: rtl
              )
              .isEmpty
            }
          ))
      }
      for (findingIndex, finding) in file.findings.enumerated() {
        for (fixIndex, fix) in finding.fixes.enumerated() {
          let signature = { (f: Finding) in "\(f.code) \(f.key ?? "") \(f.variant ?? "")" }
          let before = file.findings.filter { signature($0) == signature(finding) }.count
          plans.append(
            (
              "fix\(findingIndex).\(fixIndex)-\(finding.code.settingsKey)", fix.edits,
              { _, edited in
                let after = documentFindings(TextLines(edited), format: file.format, locale: file.locale(of:))
                return after.filter { signature($0) == signature(finding) }.count < before
              }
            ))
        }
      }
      if let error = file.read.error {
        malformed.insert(path)
        for plan in plans {
          for edit in plan.edits {
            XCTAssertLessThanOrEqual(edit.range.end, error.position, "\(path) \(plan.name): an edit after the error")
          }
        }
        continue
      }
      for plan in plans where !plan.edits.isEmpty {
        editCount += plan.edits.count
        let sorted = plan.edits.sorted { $0.range.start < $1.range.start }
        for (a, b) in zip(sorted, sorted.dropFirst()) {
          XCTAssertLessThanOrEqual(a.range.end, b.range.start, "\(path) \(plan.name): overlapping edits \(a) \(b)")
        }
        let edited = file.text.applying(plan.edits)
        let reread = LocalizationReader.read(edited, format: file.format)
        XCTAssertNil(reread.error, "\(path) \(plan.name): the library cannot read its own edits")
        XCTAssertEqual(
          reread.values.map { "\($0.key) \($0.variant ?? "")" },
          file.read.values.map { "\($0.key) \($0.variant ?? "")" },
          "\(path) \(plan.name): keys")
        XCTAssertTrue(plan.again(reread, edited), "\(path) \(plan.name): asking again still finds work\n\(edited)")
        let editedFolder = folder.appendingPathComponent("\(fileIndex)-\(plan.name)")
        try FileManager.default.createDirectory(at: editedFolder, withIntermediateDirectories: true)
        let editedPath = editedFolder.appendingPathComponent((path as NSString).lastPathComponent).path
        try edited.write(toFile: editedPath, atomically: true, encoding: .utf8)
        let id = "\(path)#\(plan.name)"
        compared[id] = plan.name
        jobs.append("compare\t\(id)\t\(reference)\t\(original)\t\(editedPath)")
      }
    }
    let jobsPath = folder.appendingPathComponent("jobs.tsv").path
    try (jobs.joined(separator: "\n") + "\n").write(toFile: jobsPath, atomically: true, encoding: .utf8)
    // The venv of install-deps holds fluent.syntax and PyYAML (else the machine's python3).
    let (python, prefix) = PythonTools.python.map { ($0, [String]()) } ?? ("/usr/bin/env", ["python3"])
    let run = try TestClient.run(python, arguments: prefix + [Corpus.checker.path, jobsPath], timeout: 600)
    XCTAssertEqual(run.status, 0, run.standardError)

    var parsed: [String: [String]] = [:]
    var rejected: Set<String> = []
    var same: Set<String> = []
    for line in run.standardOutput.split(separator: "\n") {
      let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
      guard fields.count >= 2 else { continue }
      let id = String(fields[1])
      switch fields[0] {
      case "value": parsed[id, default: []].append(String(fields[2]))
      case "error": rejected.insert(id)
      case "same": same.insert(id)
      case "differ": XCTFail("\(id): \(fields.count > 2 ? fields[2] : "")")
      default: break
      }
    }
    XCTAssertEqual(rejected, malformed, "the independent parsers reject exactly the malformed files")
    for path in paths where !malformed.contains(path) {
      var theirs = parsed[path] ?? []
      if unordered.contains(path) { theirs.sort(by: Self.byteOrder) }
      let ours = libraryValues[path] ?? []
      XCTAssertEqual(theirs.count, ours.count, "\(path): value count")
      for (a, b) in zip(ours, theirs) where a != b { XCTFail("\(path): library \(a)\n  independent \(b)") }
    }
    XCTAssertEqual(Set(compared.keys).subtracting(same).sorted(), [], "edited files not compared equal")
    print(
      "independent parsers: \(paths.count) files read (\(malformed.count) malformed, rejected by both), "
        + "\(compared.count) edited files (\(editCount) edits) compared equal")
  }

  /// The values as the independent readers give them: without ICU branches
  /// (they read messages, not their insides; Fluent's parser reads select
  /// expressions, so its variants are compared too); for `.po`, keyed
  /// "context\u{4}msgid", untranslated ones left out, sorted (msgfmt's catalog).
  static func comparable(_ values: [TextEntry], format: LocalizationFormat) -> [String] {
    var result: [String] = []
    for value in values where !value.isBranch || format == .fluent {
      var key = value.key
      // PyYAML reads a Rails file's locale key as the first key.
      if format == .yaml, let locale = value.locale { key = key.isEmpty ? locale : locale + "." + key }
      if format == .po {
        if value.text.isEmpty { continue }
        if let context = value.context { key = context + "\u{4}" + key }
      }
      result.append("\(Corpus.escape(key))\t\(value.variant ?? "-")\t\(Corpus.escape(value.text))")
    }
    return format == .po ? result.sorted(by: byteOrder) : result
  }

  static func byteOrder(_ a: String, _ b: String) -> Bool { Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8)) }
}
