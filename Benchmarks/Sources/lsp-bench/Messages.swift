/// JSON-RPC message bodies for the daemon (Protocol/specification.md: lifecycle, documents, bidi requests), built as bytes.
enum Messages {
  static let uri = "file:///bench/document.txt"

  /// `text` as a JSON string literal (quotes included).
  static func jsonString(_ text: ArraySlice<UInt8>) -> [UInt8] {
    let hex = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(text.count + text.count / 8 + 2)
    out.append(0x22)
    for byte in text {
      switch byte {
      case 0x22: out += [0x5C, 0x22]
      case 0x5C: out += [0x5C, 0x5C]
      case 0x0A: out += [0x5C, 0x6E]
      case 0x0D: out += [0x5C, 0x72]
      case 0x09: out += [0x5C, 0x74]
      case 0..<0x20: out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
      default: out.append(byte)
      }
    }
    out.append(0x22)
    return out
  }

  /// `initialize` with the `utf-16` position encoding; with `hazards` false,
  /// `initializationOptions` turn every hazard rule off (“Settings”), so
  /// that no diagnostic is found or published beyond empty sets.
  static func initialize(id: Int, hazards: Bool = true) -> [UInt8] {
    let rules = ["unpaired", "unmatched", "override", "inIdentifier", "inComment", "inString"]
    let options =
      hazards
      ? ""
      : ",\"initializationOptions\":{\"bidi\":{\"diagnostics\":{"
        + rules.map { "\"\($0)\":false" }.joined(separator: ",") + "}}}"
    return Array(
      ("{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"initialize\",\"params\":{\"processId\":null,"
        + "\"rootUri\":null,\"capabilities\":{\"general\":{\"positionEncodings\":[\"utf-16\"]}}\(options)}}").utf8)
  }

  static let initialized = Array("{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}".utf8)

  static func didOpen(text: [UInt8], uri: String = uri) -> [UInt8] {
    var body = Array(
      ("{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":"
        + "{\"uri\":\"\(uri)\",\"languageId\":\"plaintext\",\"version\":1,\"text\":").utf8)
    body += jsonString(text[...])
    body += Array("}}}".utf8)
    return body
  }

  /// An incremental change replacing `start..<end` (UTF-16 units) of `line` by `text`.
  static func didChange(version: Int, line: Int, start: Int, end: Int, text: String, uri: String = uri) -> [UInt8] {
    Array(
      ("{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"textDocument\":"
        + "{\"uri\":\"\(uri)\",\"version\":\(version)},\"contentChanges\":[{\"range\":{\"start\":"
        + "{\"line\":\(line),\"character\":\(start)},\"end\":{\"line\":\(line),\"character\":\(end)}},"
        + "\"text\":\"\(text)\"}]}}").utf8)
  }

  /// `bidi/visualOrder` of one whole line (“`bidi/visualOrder`”, default options: runs).
  static func visualOrder(id: Int, line: Int, length: Int, uri: String = uri) -> [UInt8] {
    Array(
      ("{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"bidi/visualOrder\",\"params\":{\"textDocument\":"
        + "{\"uri\":\"\(uri)\"},\"range\":{\"start\":{\"line\":\(line),\"character\":0},"
        + "\"end\":{\"line\":\(line),\"character\":\(length)}}}}").utf8)
  }
}
