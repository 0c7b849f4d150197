import JSONRPC
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Runs a server over `connection` until the connection ends and returns
/// the status its process would exit with (see `TestClient(serving:)`).
package typealias InProcessServe = @Sendable (Connection) -> Int32

/// A server run on a thread of the test process over two `MemoryPipe`s,
/// its log written to a temporary file.
final class InProcessServer: ServerLink, Sendable {
  let processID: pid_t? = nil
  private let toServer = MemoryPipe()
  private let fromServer = MemoryPipe()
  var output: any ServerOutput { fromServer }
  private let status = EndedStatus()
  private let logPath: String

  init(_ serve: @escaping InProcessServe, options: Connection.Options, logLevel: Logger.Level)
    throws(TestClientError)
  {
    let (descriptor, path) = makeTemporaryFile("bidi-test-log")
    guard descriptor >= 0 else { throw .system(call: "mkstemp", errno: errno) }
    close(descriptor)
    logPath = path
    let logger: Logger
    do { logger = try Logger(level: logLevel, path: path) } catch {
      throw .system(call: "open \(path)", errno: error.errno)
    }
    let connection = Connection(input: toServer, output: fromServer, options: options, logger: logger)
    // The thread must not keep `self` alive: its release closes the input.
    let fromServer = self.fromServer
    let status = self.status
    guard
      startThread({
        let ended = serve(connection)
        status.value.withLock { $0 = ended }
        fromServer.close()
      })
    else { throw .system(call: "pthread_create", errno: errno) }
  }

  deinit {
    // The server sees the end of its input and finishes on its own.
    toServer.close()
    unlink(logPath)
  }

  func write(_ bytes: [UInt8], timeout: Double, drain: (() throws(TestClientError) -> Void)?) throws(TestClientError) {
    // A memory pipe takes everything at once.
    guard toServer.write(bytes) else { throw .system(call: "write (input closed)", errno: EPIPE) }
  }

  func closeInput() { toServer.close() }

  func endedStatus() -> Int32? { status.value.withLock { $0 } }

  /// A thread cannot be killed: the end of its input is the fastest stop.
  func kill() { toServer.close() }

  func standardError() -> String { readWholeFile(logPath) }
}

/// The status a server thread ended with, set once.
private final class EndedStatus: Sendable {
  let value = Mutex<Int32?>(nil)
}
