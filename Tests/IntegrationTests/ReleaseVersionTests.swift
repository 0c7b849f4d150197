import BidiTestSupport
import Foundation
import XCTest

/// The project's one version (contract §9): `scripts/release-version.py`
/// reads it from its definition, the built daemon reports it, and every copy
/// of it (plugins, the Python client, the man page, the Debian changelog,
/// the protocol's examples) agrees. The artifacts are compared with it by
/// `scripts/release-smoke.sh`.
final class ReleaseVersionTests: XCTestCase {
  static let script: String = {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
    return path + "/scripts/release-version.py"
  }()

  func testTheDaemonReportsTheVersionAndEveryCopyAgrees() throws {
    let printed = try TestClient.run("/usr/bin/env", arguments: ["python3", Self.script])
    XCTAssertEqual(printed.status, 0, printed.standardError)
    let version = printed.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    XCTAssertNotNil(version.wholeMatch(of: /\d+\.\d+\.\d+/), version)

    let daemon = try TestClient.run(try builtDaemonPath(), arguments: ["--version"])
    XCTAssertEqual(daemon.standardOutput, "bidi-lsp \(version) (Unicode 17.0.0)\n")

    let check = try TestClient.run("/usr/bin/env", arguments: ["python3", Self.script, "--check"])
    XCTAssertEqual(check.status, 0, check.standardError)
    XCTAssertEqual(check.standardError, "")
  }
}
