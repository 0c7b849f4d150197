import BidiTestSupport
import JSONRPC
import XCTest

/// The parameters part of the malformed-input battery (`MalformedInputTests`):
/// mistyped and missing params of every method.
extension MalformedInputTests {

  static func parameterInputs() -> [Input] {
    var inputs: [Input] = []
    var nextID = 1400
    func add(_ name: String, _ body: String, _ expectation: Expectation) {
      inputs.append(Input(name: "params: \(name)", bytes: frame(body), expectation: expectation, isMalformed: true))
    }
    // bidi/documentInfo: -32602 naming the field.
    func info(_ name: String, _ params: String?, naming field: String) {
      nextID += 1
      let member = params.map { #","params":\#($0)"# } ?? ""
      add(
        "documentInfo \(name)", #"{"jsonrpc":"2.0","id":\#(nextID),"method":"bidi/documentInfo"\#(member)}"#,
        .error(-32602, id: JSONValue(nextID), mentioning: field))
    }
    info("without params", nil, naming: "textDocument")
    info("with empty params", "{}", naming: "textDocument")
    info("with array params", "[]", naming: "textDocument")
    for value in ["42", #""file:///battery/a.txt""#, "[]", "null", "true", "1.5"] {
      info("textDocument \(value)", #"{"textDocument":\#(value)}"#, naming: "textDocument")
    }
    info("textDocument without uri", #"{"textDocument":{}}"#, naming: "uri")
    for value in ["42", "null", "[]", "{}", "true", "1.5", "-1"] {
      info("uri \(value)", #"{"textDocument":{"uri":\#(value)}}"#, naming: "uri")
    }
    info("unknown uri", #"{"textDocument":{"uri":"file:///battery/zzz.txt"}}"#, naming: "uri")
    info("empty uri", #"{"textDocument":{"uri":""}}"#, naming: "uri")
    for value in [#""yes""#, "1", "0", "[]", "{}", #""true""#] {
      info(
        "includeText \(value)", #"{"textDocument":{"uri":"file:///battery/a.txt"},"includeText":\#(value)}"#,
        naming: "includeText")
    }

    // didOpen of a new document: a warning, and it stays closed.
    func open(_ name: String, _ params: String?) {
      let member = params.map { #","params":\#($0)"# } ?? ""
      add("didOpen \(name)", #"{"jsonrpc":"2.0","method":"textDocument/didOpen"\#(member)}"#, .warning)
    }
    func item(
      uri: String = #""file:///battery/new.txt""#, languageId: String? = #""plaintext""#,
      version: String? = "1", text: String? = #""x""#
    ) -> String {
      var members = [#""uri":\#(uri)"#]
      if let languageId { members.append(#""languageId":\#(languageId)"#) }
      if let version { members.append(#""version":\#(version)"#) }
      if let text { members.append(#""text":\#(text)"#) }
      return #"{"textDocument":{"# + members.joined(separator: ",") + "}}"
    }
    open("without params", nil)
    open("with empty params", "{}")
    open("with array params", "[]")
    open("textDocument 42", #"{"textDocument":42}"#)
    open("textDocument string", #"{"textDocument":"file:///battery/new.txt"}"#)
    open("textDocument without uri", #"{"textDocument":{"languageId":"plaintext","version":1,"text":"x"}}"#)
    open("uri 42", item(uri: "42"))
    open("uri null", item(uri: "null"))
    open("languageId 42", item(languageId: "42"))
    open("languageId missing", item(languageId: nil))
    open("version string", item(version: #""1""#))
    open("version 1.5", item(version: "1.5"))
    open("version missing", item(version: nil))
    open("version null", item(version: "null"))
    open("text 42", item(text: "42"))
    open("text null", item(text: "null"))
    open("text missing", item(text: nil))
    open("text array", item(text: #"["x"]"#))
    open("text object", item(text: #"{"x":1}"#))
    open("of the open document A", item(uri: #""file:///battery/a.txt""#, text: #""replaced""#))
    open("of the open document B, same text", item(uri: #""file:///battery/b.txt""#, text: #""line one""#))

    // didChange that cannot apply: a warning; the document and its version stay.
    func change(_ name: String, _ params: String) {
      add("didChange \(name)", #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":\#(params)}"#, .warning)
    }
    let document = #""textDocument":{"uri":"file:///battery/a.txt","version":70}"#
    func changes(_ list: String) -> String { #"{\#(document),"contentChanges":\#(list)}"# }
    func range(_ start: String, _ end: String = #"{"line":0,"character":0}"#, text: String = #""lost""#) -> String {
      changes(#"[{"range":{"start":\#(start),"end":\#(end)},"text":\#(text)}]"#)
    }
    change("with empty params", "{}")
    change("without textDocument", #"{"contentChanges":[{"text":"lost"}]}"#)
    change("textDocument 42", #"{"textDocument":42,"contentChanges":[{"text":"lost"}]}"#)
    change("uri 42", #"{"textDocument":{"uri":42,"version":70},"contentChanges":[{"text":"lost"}]}"#)
    change(
      "unknown document",
      #"{"textDocument":{"uri":"file:///battery/new.txt","version":70},"contentChanges":[{"text":"x"}]}"#)
    change(
      "version string",
      #"{"textDocument":{"uri":"file:///battery/a.txt","version":"70"},"contentChanges":[{"text":"lost"}]}"#)
    change(
      "version 2.5",
      #"{"textDocument":{"uri":"file:///battery/a.txt","version":2.5},"contentChanges":[{"text":"lost"}]}"#)
    change("version missing", #"{"textDocument":{"uri":"file:///battery/a.txt"},"contentChanges":[{"text":"lost"}]}"#)
    change(
      "version null",
      #"{"textDocument":{"uri":"file:///battery/a.txt","version":null},"contentChanges":[{"text":"lost"}]}"#)
    change("contentChanges missing", "{\(document)}")
    for list in [
      "42", "{}", #""lost""#, "[42]", "[null]", "[{}]", #"[{"text":42}]"#, #"[{"text":null}]"#, #"[{"text":["a"]}]"#,
      #"[{"range":42,"text":"lost"}]"#, #"[{"range":"0:0","text":"lost"}]"#, #"[{"range":[],"text":"lost"}]"#,
      #"[{"range":{},"text":"lost"}]"#, #"[{"range":{"start":{"line":0,"character":0}},"text":"lost"}]"#,
    ] {
      change("contentChanges \(list)", changes(list))
    }
    change("start 42", range("42"))
    change("start without line", range(#"{"character":0}"#))
    change("start without character", range(#"{"line":0}"#))
    change("line -1", range(#"{"line":-1,"character":0}"#))
    change("character -1", range(#"{"line":0,"character":-1}"#))
    change("line string", range(#"{"line":"0","character":0}"#))
    change("character string", range(#"{"line":0,"character":"0"}"#))
    change("line 1.5", range(#"{"line":1.5,"character":0}"#))
    change("character 2.5", range(#"{"line":0,"character":2.5}"#))
    change("line 1e2", range(#"{"line":1e2,"character":0}"#))
    change("line true", range(#"{"line":true,"character":0}"#))
    change("character null", range(#"{"line":0,"character":null}"#))
    change("line 2^31", range(#"{"line":2147483648,"character":0}"#, #"{"line":2147483648,"character":0}"#))
    change("line 2^53", range(#"{"line":9007199254740992,"character":0}"#, #"{"line":9007199254740992,"character":0}"#))
    change(
      "line Int64.max",
      range(#"{"line":9223372036854775807,"character":0}"#, #"{"line":9223372036854775807,"character":0}"#))
    change("line at lineCount", range(#"{"line":4,"character":0}"#, #"{"line":4,"character":0}"#))
    change("end line past the end", range(#"{"line":0,"character":0}"#, #"{"line":99,"character":0}"#))
    change("start after end on a line", range(#"{"line":0,"character":5}"#, #"{"line":0,"character":2}"#))
    change("start after end across lines", range(#"{"line":2,"character":0}"#, #"{"line":1,"character":3}"#))
    change("end -1", range(#"{"line":0,"character":0}"#, #"{"line":0,"character":-1}"#))
    change(
      "second change invalid",
      changes(
        #"[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"text":"X"},{"range":{"start":{"line":40,"character":0},"end":{"line":40,"character":0}},"text":"Y"}]"#
      ))
    change(
      "full change then an invalid one",
      changes(
        #"[{"text":"all gone"},{"range":{"start":{"line":0,"character":3},"end":{"line":0,"character":1}},"text":""}]"#)
    )
    change(
      "valid change then one without text",
      changes(#"[{"text":"all gone"},{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}}}]"#))

    // didClose that cannot apply.
    func close(_ name: String, _ params: String) {
      add("didClose \(name)", #"{"jsonrpc":"2.0","method":"textDocument/didClose","params":\#(params)}"#, .warning)
    }
    close("with empty params", "{}")
    close("textDocument 42", #"{"textDocument":42}"#)
    close("uri 42", #"{"textDocument":{"uri":42}}"#)
    close("uri null", #"{"textDocument":{"uri":null}}"#)
    close("unknown document", #"{"textDocument":{"uri":"file:///battery/new.txt"}}"#)

    // Accepted and ignored whatever they carry.
    func ignored(_ name: String, _ body: String) { add(name, body, .nothing) }
    ignored(
      "didSave with textDocument 42", #"{"jsonrpc":"2.0","method":"textDocument/didSave","params":{"textDocument":42}}"#
    )
    ignored("didSave with array params", #"{"jsonrpc":"2.0","method":"textDocument/didSave","params":[]}"#)
    ignored("cancel without params", #"{"jsonrpc":"2.0","method":"$/cancelRequest"}"#)
    ignored("cancel with empty params", #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{}}"#)
    ignored("cancel with id null", #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":null}}"#)
    ignored("cancel with id object", #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":{}}}"#)
    ignored("cancel with id 1.5", #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1.5}}"#)
    ignored("initialized with array params", #"{"jsonrpc":"2.0","method":"initialized","params":[]}"#)
    ignored("initialized with junk params", #"{"jsonrpc":"2.0","method":"initialized","params":{"x":[1]}}"#)
    ignored("unknown notification with junk", #"{"jsonrpc":"2.0","method":"junk/notification","params":[null,{}]}"#)
    return inputs
  }
}
