import DocumentStore
import UnicodeBidi
import XCTest

final class DocumentStoreTests: XCTestCase {
  let uri = "file:///tmp/sample.txt"

  func testOpenChangeClose() throws {
    var store = DocumentStore()
    try store.open(uri: uri, languageId: "plaintext", version: 1, text: "مرحبا\nworld")
    try store.change(
      uri: uri, version: 2,
      changes: [
        ContentChange(range: LSPRange(1, 0, 1, 5), text: "עולם"),
        ContentChange(range: LSPRange(0, 5, 0, 5), text: " 😀"),
      ], encoding: .utf16)
    let document = try store.document(uri)
    XCTAssertEqual(document.version, 2)
    XCTAssertEqual(document.languageId, "plaintext")
    XCTAssertEqual(document.text.text, "مرحبا 😀\nעולם")
    try store.change(uri: uri, version: 3, changes: [.full("")], encoding: .utf8)
    XCTAssertEqual(store[uri]?.text.lineCount, 1)
    XCTAssertEqual(store.count, 1)
    try store.close(uri: uri)
    XCTAssertNil(store[uri])
    XCTAssertEqual(store.count, 0)
  }

  func testOpenFromUTF8Bytes() throws {
    var store = DocumentStore()
    let bytes = Array("a\r\nb".utf8)
    try bytes.withUnsafeBufferPointer { try store.open(uri: uri, languageId: "x", version: 0, utf8: $0) }
    XCTAssertEqual(store[uri]?.text.lineCount, 2)
  }

  func testAFailingChangeLeavesTheDocumentExactlyAsItWas() throws {
    var store = DocumentStore()
    try store.open(uri: uri, languageId: "plaintext", version: 1, text: "one\ntwo\nthree")
    let before = try store.document(uri)
    XCTAssertThrowsError(
      try store.change(
        uri: uri, version: 2,
        changes: [
          ContentChange(range: LSPRange(0, 0, 0, 3), text: "ONE\nnew"),
          .full("replaced"),
          ContentChange(range: LSPRange(0, 0, 0, 1), text: "R"),
          ContentChange(range: LSPRange(5, 0, 5, 0), text: "beyond"),
        ], encoding: .utf16)
    ) { error in
      XCTAssertEqual(error as? DocumentError, .contentChange(index: 3, .lineOutOfRange(line: 5, lineCount: 1)))
      XCTAssertEqual(
        "\(error)",
        "content change 3 cannot be applied: line 5 is past the end of the document, which has 1 line (0...0); "
          + "the document is unchanged")
    }
    let after = try store.document(uri)
    XCTAssertEqual(after.version, 1)
    XCTAssertEqual(after.text.text, "one\ntwo\nthree")
    XCTAssertEqual(after.text.text, before.text.text)
    XCTAssertEqual(after.text.invariantViolations(), [])
  }

  func testSnapshotsDoNotSeeLaterChanges() throws {
    var store = DocumentStore()
    try store.open(uri: uri, languageId: "plaintext", version: 1, text: "before")
    let snapshot = try store.document(uri)
    try store.change(uri: uri, version: 2, changes: [.full("after")], encoding: .utf16)
    XCTAssertEqual(snapshot.text.text, "before")
    XCTAssertEqual(snapshot.version, 1)
    XCTAssertEqual(store[uri]?.text.text, "after")
  }

  func testErrorsNameTheProblem() throws {
    var store = DocumentStore()
    try store.open(uri: uri, languageId: "plaintext", version: 1, text: "x")
    XCTAssertThrowsError(try store.open(uri: uri, languageId: "plaintext", version: 1, text: "y")) { error in
      XCTAssertEqual(error as? DocumentError, .alreadyOpen(uri: uri))
      XCTAssertEqual("\(error)", "document \(uri) is already open")
    }
    XCTAssertEqual(store[uri]?.text.text, "x")
    XCTAssertThrowsError(try store.change(uri: "file:///nope", version: 2, changes: [.full("")], encoding: .utf16)) {
      XCTAssertEqual($0 as? DocumentError, .unknownDocument(uri: "file:///nope"))
    }
    XCTAssertThrowsError(try store.close(uri: "file:///nope"))
    XCTAssertThrowsError(try store.document("file:///nope"))
  }

  func testWithDocumentKeepsCachesFilledInPlace() throws {
    var store = DocumentStore()
    try store.open(uri: uri, languageId: "plaintext", version: 1, text: "a\nb")
    try store.withDocument(uri) { document in _ = try document.text.analysis(ofLine: 1) }
    XCTAssertNotNil(store[uri]?.text.cachedAnalysis(ofLine: 1))
    XCTAssertThrowsError(try store.withDocument("file:///nope") { _ in })
  }
}
