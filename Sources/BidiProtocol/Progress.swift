import JSONRPC

/// `window/workDoneProgress/create` and `$/progress` (LSP work-done
/// progress), as the server sends them.
package enum Progress {
  package static let createMethod = "window/workDoneProgress/create"
  package static let method = "$/progress"

  /// The params of `window/workDoneProgress/create`.
  package static func createParams(token: String) -> JSONValue {
    ["token": .string(token)]
  }

  /// One report of a progress: begin, report or end.
  package enum Report: Sendable, Hashable, JSONEncodable {
    case begin(title: String, message: String)
    case report(message: String, percentage: Int)
    case end(message: String)

    package func encode(to writer: inout JSONWriter) {
      writer.beginObject()
      switch self {
      case .begin(let title, let message):
        writer.member("kind", "begin")
        writer.member("title", title)
        writer.member("message", message)
        writer.member("cancellable", false)
        writer.member("percentage", 0)
      case .report(let message, let percentage):
        writer.member("kind", "report")
        writer.member("message", message)
        writer.member("percentage", percentage)
      case .end(let message):
        writer.member("kind", "end")
        writer.member("message", message)
      }
      writer.endObject()
    }
  }

  /// The params of `$/progress`: `{token, value}`.
  package static func encodeParams(token: String, _ report: Report, to writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("token", token)
    writer.member("value", report)
    writer.endObject()
  }
}
