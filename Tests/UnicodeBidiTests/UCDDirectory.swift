import Foundation

/// Finds the Unicode Character Database files the tests read.
enum UCDDirectory {
  /// The package root, found from this file's path (not the working
  /// directory): Tests/UnicodeBidiTests/UCDDirectory.swift.
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The candidate directories, in order: `$BIDI_UCD_DIR`, then
  /// `../shared/ucd/17.0.0` beside the package root, then Debian's
  /// unicode-data copy in `/usr/share/unicode` (version 15.0, whose
  /// conformance test data lines are identical to 17.0's).
  static var candidates: [URL] {
    var result: [URL] = []
    if let variable = ProcessInfo.processInfo.environment["BIDI_UCD_DIR"], !variable.isEmpty {
      result.append(URL(fileURLWithPath: variable))
    }
    result.append(packageRoot.appendingPathComponent("../shared/ucd/17.0.0").standardizedFileURL)
    result.append(URL(fileURLWithPath: "/usr/share/unicode"))
    return result
  }

  /// The first candidate directory that holds `file`, or nil.
  static func locate(_ file: String) -> URL? {
    candidates.lazy.map { $0.appendingPathComponent(file) }
      .first { FileManager.default.fileExists(atPath: $0.path) }
  }

  /// The first candidate directory whose bidi property files are those of
  /// Unicode 17.0.0, or nil.
  static func unicode17() -> URL? {
    candidates.first { directory in
      let url = directory.appendingPathComponent("DerivedBidiClass.txt")
      guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
      defer { try? handle.close() }
      let head = (try? handle.read(upToCount: 64)) ?? Data()
      return String(decoding: head, as: UTF8.self).contains("17.0.0")
    }
  }

  static var searchedPaths: String {
    candidates.map(\.path).joined(separator: ", ")
  }
}
