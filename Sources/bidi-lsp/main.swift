// The `bidi-lsp` executable: argument parsing and the entry points of its
// commands. The work itself lives in the library modules.

import BidiCommands
import BidiHazards
import BidiServer
import JSONRPC
import UnicodeBidi

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

let usage = """
  Usage:
    bidi-lsp [--stdio] [--log-level LEVEL] [--log-file PATH] [--max-message-size BYTES]
    bidi-lsp visual [--direction auto|ltr|rtl] [--combining-marks after-base|resolved]
                    [--controls strip|keep|names] [--width N] [--max-paragraph BYTES] [FILE|-]
    bidi-lsp check [--format text|json|sarif] [--language ID] [--locale TAG] FILE...
    bidi-lsp --version | --help

  Serves the bidi-lsp protocol (JSON-RPC 2.0, LSP framing) on stdin/stdout:
  natural paragraph direction, alignment, UAX #9 visual order and bidi mark
  insertion for right-to-left and mixed-direction text, and diagnostics for
  hidden bidi controls (Trojan Source, CVE-2021-42574).

  Options:
    --stdio                    serve on stdin/stdout (the default)
    --log-level LEVEL          error, warning, info (default), debug or trace
    --log-file PATH            log to PATH instead of stderr
    --max-message-size BYTES   refuse larger messages (default 536870912 = 512 MiB)
    --version                  print the version and exit
    --help                     print this help and exit

  Commands:
    visual    print each line of FILE (or stdin) in visual order ('visual --help')
    check     report bidi hazards; exit 1 if any, 0 if none, 2 on errors ('check --help')

  Protocol: Protocol/specification.md in the source distribution.

  """

func fail(_ message: String) -> Never {
  writeAll(STDERR_FILENO, "bidi-lsp: \(message)\n\n\(usage)")
  exit(2)
}

func writeAll(_ fd: Int32, _ text: String) {
  writeAll(fd, bytes: Array(text.utf8))
}

/// Writes all of `bytes` to `fd` (retrying on EINTR; stops on an error).
func writeAll(_ fd: Int32, bytes: [UInt8]) {
  bytes.withUnsafeBytes { raw in
    var offset = 0
    while offset < raw.count {
      let written = write(fd, raw.baseAddress! + offset, raw.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return
      }
      offset += written
    }
  }
}

/// Serves the protocol on stdin/stdout until `exit` or the end of input.
func serve(_ arguments: ArraySlice<String>) -> Int32 {
  var level = Logger.Level.info
  var logFile: String?
  var maximumMessageSize = 512 << 20
  var rest = arguments
  while let argument = rest.popFirst() {
    switch argument {
    case "--stdio":
      continue
    case "--log-level":
      guard let name = rest.popFirst(), let parsed = Logger.Level(name) else {
        fail("--log-level needs one of error, warning, info, debug, trace")
      }
      level = parsed
    case "--log-file":
      guard let path = rest.popFirst() else { fail("--log-file needs a path") }
      logFile = path
    case "--max-message-size":
      guard let text = rest.popFirst(), let size = Int(text), size > 0 else {
        fail("--max-message-size needs a positive number of bytes")
      }
      maximumMessageSize = size
    default:
      fail("unknown argument '\(argument)'")
    }
  }
  let logger: Logger
  if let logFile {
    do {
      logger = try Logger(level: level, path: logFile)
    } catch {
      writeAll(STDERR_FILENO, "bidi-lsp: cannot open log file: \(error)\n")
      return 2
    }
  } else {
    logger = Logger(level: level)
  }
  enlargeStdinPipe()
  let connection = Connection(options: Connection.Options(maximumMessageSize: maximumMessageSize), logger: logger)
  let server = BidiLanguageServer(logger: logger)
  logger.info("\(BidiLanguageServer.name) \(BidiLanguageServer.version) serving on stdio")
  let ending = connection.run(server)
  let status = server.finalStatus()
  logger.info("connection ended (\(ending)); exit status \(status)")
  return status
}

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "--version":
  let version = "\(BidiLanguageServer.name) \(BidiLanguageServer.version)"
  writeAll(STDOUT_FILENO, "\(version) (Unicode \(BidiProperties.unicodeVersion))\n")
  exit(0)
case "--help", "-h":
  writeAll(STDOUT_FILENO, usage)
  exit(0)
case "visual":
  exit(VisualCommand.run(arguments: Array(arguments.dropFirst())))
case "check":
  exit(
    runCheck(
      arguments: Array(arguments.dropFirst()),
      output: { writeAll(STDOUT_FILENO, bytes: $0) },
      stderr: { writeAll(STDERR_FILENO, $0) },
      visualOrder: HazardScanner.visualOrderWriter, version: BidiLanguageServer.version))
default:
  exit(serve(arguments))
}
