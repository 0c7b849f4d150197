import JSONRPC

/// A result that is a list of entries (paragraphs, edits, diagnostics,
/// hints, code actions): the entry type, and the member that holds the list
/// (`{"paragraphs": […]}`), or nil for a bare array.
package protocol ListResult {
  associatedtype Entry: JSONEncodable
  static var member: String? { get }
}

/// Writes a list result one entry at a time into the outgoing bytes: the
/// whole answer never exists as values, only as encoded text plus the entry
/// being written. Between entries it checks the request's cancellation, so
/// a cancelled request stops and answers -32800.
package struct ResultStream<Result: ListResult> {
  fileprivate var writer: JSONWriter
  private let context: RequestContext?
  /// Entries written so far.
  package private(set) var count = 0

  fileprivate init(context: RequestContext?) {
    self.writer = JSONWriter()
    self.context = context
  }

  /// Writes one entry; throws -32800 once the request has been cancelled
  /// (before the entry, or while a long array of it was written).
  package mutating func append(_ entry: Result.Entry) throws(ResponseError) {
    if let context, context.isCancelled { throw .cancelled(context) }
    entry.encode(to: &writer)
    if let context, writer.isInterrupted { throw .cancelled(context) }
    count += 1
  }

  /// Throws -32800 if the request has been cancelled (for producers that
  /// work a long time between entries).
  package func checkCancellation() throws(ResponseError) {
    if let context, context.isCancelled { throw .cancelled(context) }
  }
}

extension JSONWriter {
  /// Writes a `Result` whose entries `produce` appends, one by one.
  /// `context` (nil for a notification) is checked before each entry.
  package mutating func stream<Result: ListResult>(
    _: Result.Type, _ context: RequestContext?, _ produce: (inout ResultStream<Result>) throws(ResponseError) -> Void
  ) throws(ResponseError) {
    if let member = Result.member {
      beginObject()
      key(member)
    }
    beginArray()
    // The bytes move into the stream and back (no copy of what is written).
    var stream = ResultStream<Result>(context: context)
    // Long arrays inside an entry check the request's cancellation too.
    let outer = interruption
    interruption = context
    swap(&self, &stream.writer)
    try produce(&stream)
    swap(&self, &stream.writer)
    interruption = outer
    endArray()
    if Result.member != nil { endObject() }
  }
}
