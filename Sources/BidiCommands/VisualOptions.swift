import UnicodeBidi

/// What `bidi-lsp visual` was asked for (Protocol/specification.md, “The
/// command line”).
struct VisualOptions {
  /// How the bidi controls appear in the output: as `visualText` shows
  /// them (`keep`), every one dropped (`strip`, `fribidi --clean`), or
  /// each written by name (`names`, `[RLO]`).
  typealias Controls = ControlDisplay

  /// When Arabic letters are joined (`--shape[=WHEN]`, `--no-shape`).
  enum Shaping: String {
    /// When standard output is a terminal: a terminal that does not shape
    /// shows unjoined letters, while a pipe or a file keeps the characters.
    case auto
    case always
    case never
  }

  var direction = DirectionChoice.auto
  var combiningMarks = CombiningMarkOrder.afterBase
  var controls = Controls.strip
  /// Right-aligns right-to-left lines to this many columns; nil: no padding.
  var width: Int?
  var shaping = Shaping.auto
  /// Whether this run joins Arabic letters: `shaping` decided for its
  /// standard output (`resolveShaping(outputIsTerminal:)`).
  var shapes = false
  /// The longest paragraph reordered; a longer one is refused (exit 2).
  var maximumParagraph = VisualOptions.defaultMaximumParagraph
  /// `--document`: the file's rendered paragraphs (`VisualDocument`), not its lines.
  var document = false

  /// Decides `shapes` for an output that is a terminal or not.
  mutating func resolveShaping(outputIsTerminal: Bool) {
    shapes = shaping == .always || (shaping == .auto && outputIsTerminal)
  }

  /// 4 MiB: reordering a paragraph takes about 25 times its size in memory.
  static let defaultMaximumParagraph = 4 << 20

  /// Parses the arguments after `visual`: the options, then the path (nil
  /// for standard input). Throws the message of a usage error.
  static func parse(_ arguments: [String]) throws(UsageError) -> (options: VisualOptions, path: String?, help: Bool) {
    var options = VisualOptions()
    var path: String?
    var rest = arguments[...]
    var optionsEnded = false
    while let argument = rest.popFirst() {
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        guard path == nil else { throw UsageError("unexpected argument '\(argument)'") }
        path = argument
        continue
      }
      var name = argument
      var inline: String?
      if let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inline = String(argument[argument.index(after: equals)...])
      }
      func value() throws(UsageError) -> String {
        if let inline { return inline }
        guard let next = rest.popFirst() else { throw UsageError("\(name) needs a value") }
        return next
      }
      switch name {
      case "--":
        optionsEnded = true
      case "--help", "-h":
        return (options, path, true)
      case "--direction":
        switch try value() {
        case "auto": options.direction = .auto
        case "ltr": options.direction = .leftToRight
        case "rtl": options.direction = .rightToLeft
        default: throw UsageError("--direction needs auto, ltr or rtl")
        }
      case "--combining-marks":
        switch try value() {
        case "resolved": options.combiningMarks = .resolved
        case "after-base": options.combiningMarks = .afterBase
        default: throw UsageError("--combining-marks needs resolved or after-base")
        }
      case "--controls":
        guard let controls = Controls(rawValue: try value()) else {
          throw UsageError("--controls needs keep, strip or names")
        }
        options.controls = controls
      case "--shape":
        // As GNU's --color[=WHEN]: a value only after '=', so that
        // `--shape FILE` reads FILE.
        guard let inline else {
          options.shaping = .always
          continue
        }
        guard let shaping = Shaping(rawValue: inline) else {
          throw UsageError("--shape needs auto, always or never")
        }
        options.shaping = shaping
      case "--no-shape":
        guard inline == nil else { throw UsageError("--no-shape takes no value") }
        options.shaping = .never
      case "--width":
        guard let width = Int(try value()), width > 0, width <= 1 << 20 else {
          throw UsageError("--width needs a number of columns from 1 to 1048576")
        }
        options.width = width
      case "--document":
        options.document = true
      case "--max-paragraph":
        guard let bytes = Int(try value()), bytes > 0, bytes <= 1 << 30 else {
          throw UsageError("--max-paragraph needs a number of bytes from 1 to 1073741824")
        }
        options.maximumParagraph = bytes
      default:
        throw UsageError("unknown option '\(argument)'")
      }
    }
    return (options, path, false)
  }
}

/// A usage error's message.
struct UsageError: Error {
  let message: String
  init(_ message: String) { self.message = message }
}
