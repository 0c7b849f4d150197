import JSONRPC
import XCTest

private func classify(_ text: String) throws -> Message {
  try Message(classifying: JSONValue(decoding: text))
}

private func invalid(_ text: String, file: StaticString = #filePath, line: UInt = #line)
  -> InvalidMessage?
{
  do {
    let message = try Message(classifying: JSONValue(decoding: text))
    XCTFail("classified as \(message)", file: file, line: line)
  } catch let error as InvalidMessage {
    return error
  } catch {
    XCTFail("not JSON: \(error)", file: file, line: line)
  }
  return nil
}

final class MessageTests: XCTestCase {
  // MARK: Valid messages

  func testRequest() throws {
    XCTAssertEqual(
      try classify(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"a":1}}"#),
      .request(Request(id: 1, method: "initialize", params: ["a": 1])))
    XCTAssertEqual(
      try classify(#"{"jsonrpc":"2.0","id":"x-1","method":"m","params":[1]}"#),
      .request(Request(id: "x-1", method: "m", params: [1])))
  }

  func testRequestWithoutOrWithNullParams() throws {
    XCTAssertEqual(
      try classify(#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#),
      .request(Request(id: 2, method: "shutdown")))
    XCTAssertEqual(
      try classify(#"{"jsonrpc":"2.0","id":2,"method":"shutdown","params":null}"#),
      .request(Request(id: 2, method: "shutdown")))
  }

  func testNotification() throws {
    XCTAssertEqual(
      try classify(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#),
      .notification(Notification(method: "initialized", params: [:])))
    XCTAssertEqual(
      try classify(#"{"method":"exit","jsonrpc":"2.0","extra":true}"#),
      .notification(Notification(method: "exit")))
  }

  func testResponses() throws {
    XCTAssertEqual(
      try classify(#"{"jsonrpc":"2.0","id":3,"result":null}"#),
      .response(Response(id: 3, result: .success(nil))))
    XCTAssertEqual(
      try classify(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}"#),
      .response(Response(id: nil, result: .failure(.parseError("bad")))))
  }

  func testEncodingPutsJSONRPCAndIDFirst() {
    let response = Message.response(Response(id: 4, result: .success(["x": 1])))
    XCTAssertEqual(response.json.encodedString(), #"{"jsonrpc":"2.0","id":4,"result":{"x":1}}"#)
    let error = Message.response(Response(id: nil, result: .failure(.invalidRequest("no"))))
    XCTAssertEqual(
      error.json.encodedString(),
      #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"no"}}"#)
    let notification = Message.notification(
      Notification(method: "window/logMessage", params: ["type": 3]))
    XCTAssertEqual(
      notification.json.encodedString(),
      #"{"jsonrpc":"2.0","method":"window/logMessage","params":{"type":3}}"#)
  }

  func testMessagesRoundTripThroughClassification() throws {
    let messages: [Message] = [
      .request(Request(id: "a", method: "m", params: ["k": [1, 2]])),
      .notification(Notification(method: "n")),
      .response(Response(id: 9, result: .success("ok"))),
      .response(
        Response(
          id: 9, result: .failure(ResponseError(code: .requestCancelled, message: "c", data: [1])))),
    ]
    for message in messages {
      XCTAssertEqual(try Message(classifying: JSONValue(decoding: message.encoded())), message)
    }
  }

  // MARK: Invalid messages

  func testNonObjectsAreInvalidRequestsWithNullID() {
    for text in ["42", "\"text\"", "null", "true", "1.5"] {
      let error = invalid(text)
      XCTAssertNil(error?.id, text)
      XCTAssertEqual(error?.isResponse, false)
      XCTAssertEqual(error?.responseError.code, .invalidRequest)
    }
  }

  func testBatchesAreOneInvalidRequestWithNullID() {
    for text in [
      "[]", #"[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","id":2,"method":"b"}]"#,
    ] {
      let error = invalid(text)
      XCTAssertNil(error?.id)
      XCTAssertTrue(error?.reason.contains("batch") ?? false)
    }
  }

  func testNullIDIsInvalidWithNullID() {
    let error = invalid(#"{"jsonrpc":"2.0","id":null,"method":"m"}"#)
    XCTAssertNil(error?.id)
    XCTAssertEqual(error?.isResponse, false)
  }

  func testIDsOfWrongTypeAreInvalidWithNullID() {
    for id in ["true", "1.5", "{}", "[1]"] {
      let error = invalid(#"{"jsonrpc":"2.0","id":\#(id),"method":"m"}"#)
      XCTAssertNil(error?.id, id)
      XCTAssertTrue(error?.reason.contains("\"id\"") ?? false, error?.reason ?? "")
    }
  }

  func testMethodMustBeAString() {
    for method in ["1", "null", "[]", "{}"] {
      let error = invalid(#"{"jsonrpc":"2.0","id":5,"method":\#(method)}"#)
      XCTAssertEqual(error?.id, 5, "a valid id is kept for the answer")
      XCTAssertTrue(error?.reason.contains("method") ?? false)
    }
    XCTAssertNil(invalid(#"{"jsonrpc":"2.0","method":7}"#)?.id)
  }

  func testMissingMethod() {
    XCTAssertEqual(invalid(#"{"jsonrpc":"2.0","id":6}"#)?.id, 6)
    XCTAssertNotNil(invalid(#"{"jsonrpc":"2.0"}"#))
  }

  func testJSONRPCVersionIsRequired() {
    XCTAssertEqual(invalid(#"{"id":1,"method":"m"}"#)?.id, 1)
    XCTAssertNotNil(invalid(#"{"jsonrpc":"1.0","method":"m"}"#))
    XCTAssertNotNil(invalid(#"{"jsonrpc":2.0,"method":"m"}"#))
  }

  func testParamsMustBeStructured() {
    for params in ["1", "\"s\"", "true"] {
      let error = invalid(#"{"jsonrpc":"2.0","id":8,"method":"m","params":\#(params)}"#)
      XCTAssertEqual(error?.id, 8)
      XCTAssertTrue(error?.reason.contains("params") ?? false)
    }
    XCTAssertNotNil(invalid(#"{"jsonrpc":"2.0","method":"m","params":3}"#))
  }

  func testBrokenResponsesAreMarkedAsResponses() {
    let texts = [
      #"{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"m"}}"#,
      #"{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}"#,
      #"{"jsonrpc":"2.0","id":1,"error":42}"#,
      #"{"jsonrpc":"2.0","result":1}"#,
      #"{"jsonrpc":"2.0","id":null,"result":1}"#,
      #"{"jsonrpc":"2.0","id":true,"result":1}"#,
    ]
    for text in texts { XCTAssertEqual(invalid(text)?.isResponse, true, text) }
  }

  // MARK: Errors and ids

  func testErrorCodesHaveTheSpecValues() {
    XCTAssertEqual(ErrorCode.parseError.rawValue, -32700)
    XCTAssertEqual(ErrorCode.invalidRequest.rawValue, -32600)
    XCTAssertEqual(ErrorCode.methodNotFound.rawValue, -32601)
    XCTAssertEqual(ErrorCode.invalidParams.rawValue, -32602)
    XCTAssertEqual(ErrorCode.internalError.rawValue, -32603)
    XCTAssertEqual(ErrorCode.serverNotInitialized.rawValue, -32002)
    XCTAssertEqual(ErrorCode.requestCancelled.rawValue, -32800)
  }

  func testResponseErrorJSON() {
    let error = ResponseError(
      code: .invalidParams, message: "missing textDocument", data: ["field": "uri"])
    XCTAssertEqual(
      error.json.encodedString(),
      #"{"code":-32602,"message":"missing textDocument","data":{"field":"uri"}}"#)
    XCTAssertEqual(ResponseError(json: error.json), error)
    XCTAssertNil(ResponseError(json: ["code": "x", "message": "m"]))
  }

  func testRequestIDs() {
    XCTAssertEqual(RequestID(json: 3), .integer(3))
    XCTAssertEqual(RequestID(json: "3"), .string("3"))
    XCTAssertNil(RequestID(json: nil))
    XCTAssertNil(RequestID(json: 3.0))
    XCTAssertNotEqual(RequestID.integer(3), RequestID.string("3"))
    XCTAssertEqual(RequestID.string("a").description, #""a""#)
  }
}
