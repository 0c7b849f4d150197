import StructuredText

/// The structure of an ICU MessageFormat message (ARB, i18next/ICU JSON,
/// `.properties`, `.po` `java-format`), found in one pass over its decoded
/// bytes with an explicit stack (no recursion, linear time):
///
/// - `{name}`, `{0}` and `{name, type}` / `{name, type, style}` are simple
///   arguments; numeric when the type is `number`, or, for a plain
///   `{name}`, when it stands in a branch of a `plural`/`selectordinal` on
///   that same name.
/// - `{name, plural|select|selectordinal, [offset:n] selector {branch} …}` is
///   one placeholder as a whole (numeric unless `select`), and each branch a
///   message of its own, reported with its variant (`plural:one`, `select:male`,
///   `plural:=0`); `#` in a plural or selectordinal branch is a numeric placeholder.
/// - Apostrophes quote as ICU's default (`DOUBLE_OPTIONAL`) mode says: `''`
///   is an apostrophe, and `'` starts quoted text only before `{`, `}`, `|`
///   or, in a plural branch, `#`.
/// - A `{` that starts no argument is text. A complex argument, or an
///   argument's style, left open at the end of the message makes it and
///   everything after it text.
struct ICUMessage {
  struct Argument {
    var placeholder: TextAtom
    /// The branch it stands in (an index into `branches`), or -1 for the message.
    var owner: Int
  }

  struct Branch {
    /// The branch's text, between its braces.
    var content: Range<Int>
    /// `plural:one`…
    var variant: String
    /// The branch the complex argument holding it stands in, or -1.
    var owner: Int
  }

  var arguments: [Argument] = []
  var branches: [Branch] = []

  private enum Frame {
    case message(owner: Int, poundNumeric: Bool)
    case complex(start: Int, type: String, name: String, owner: Int, poundNumeric: Bool)
  }

  /// Parses `bytes`, reading the ranges of `opaque` (sorted: i18next forms
  /// found first) as plain text.
  init(_ bytes: [UInt8], opaque: [Range<Int>] = []) {
    var stack: [Frame] = [.message(owner: -1, poundNumeric: false)]
    var pluralNames: [String: Int] = [:]
    var nextOpaque = 0
    var index = 0
    let count = bytes.count
    func at(_ k: Int) -> UInt8? { k < count ? bytes[k] : nil }
    func skipSpaces(_ k: inout Int) {
      while let byte = at(k), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { k += 1 }
    }
    func name(_ k: inout Int) -> String {
      let start = k
      while let byte = at(k), isNameByte(byte) { k += 1 }
      return String(decoding: bytes[start..<k], as: UTF8.self)
    }
    var failedAt: Int?
    parsing: while index < count {
      guard let top = stack.last else { break }
      switch top {
      case .message(let owner, let poundNumeric):
        while nextOpaque < opaque.count, opaque[nextOpaque].upperBound <= index { nextOpaque += 1 }
        if nextOpaque < opaque.count, opaque[nextOpaque].contains(index) {
          index = opaque[nextOpaque].upperBound
          continue
        }
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "'"):
          let next = at(index + 1)
          if next == UInt8(ascii: "'") {
            index += 2
          } else if next == UInt8(ascii: "{") || next == UInt8(ascii: "}") || next == UInt8(ascii: "|")
            || (next == UInt8(ascii: "#") && poundNumeric)
          {
            index += 1
            while index < count {
              if bytes[index] == UInt8(ascii: "'") {
                if at(index + 1) == UInt8(ascii: "'") {
                  index += 2
                  continue
                }
                index += 1
                break
              }
              index += 1
            }
          } else {
            index += 1
          }
        case UInt8(ascii: "{"):
          var probe = index + 1
          skipSpaces(&probe)
          let argument = name(&probe)
          guard !argument.isEmpty else {
            index += 1
            continue
          }
          skipSpaces(&probe)
          if at(probe) == UInt8(ascii: "}") {
            let numeric = (pluralNames[argument] ?? 0) > 0
            arguments.append(
              Argument(
                placeholder: TextAtom(
                  range: index..<probe + 1, kind: .braces, isNumeric: numeric, name: argument),
                owner: owner))
            index = probe + 1
            continue
          }
          guard at(probe) == UInt8(ascii: ",") else {
            index += 1
            continue
          }
          probe += 1
          skipSpaces(&probe)
          let type = name(&probe)
          skipSpaces(&probe)
          if type == "plural" || type == "select" || type == "selectordinal" {
            guard at(probe) == UInt8(ascii: ",") else {
              index += 1
              continue
            }
            probe += 1
            skipSpaces(&probe)
            if type != "select", bytes[probe...].starts(with: Array("offset:".utf8)) {
              probe += 7
              skipSpaces(&probe)
              while let byte = at(probe), isDigit(byte) { probe += 1 }
            }
            if type != "select" { pluralNames[argument, default: 0] += 1 }
            stack.append(
              .complex(
                start: index, type: type, name: argument, owner: owner,
                poundNumeric: type != "select" || poundNumeric))
            index = probe
            continue
          }
          if at(probe) == UInt8(ascii: "}") {
            arguments.append(
              Argument(
                placeholder: TextAtom(
                  range: index..<probe + 1, kind: .braces, isNumeric: type == "number", name: argument),
                owner: owner))
            index = probe + 1
            continue
          }
          guard at(probe) == UInt8(ascii: ","), !type.isEmpty else {
            index += 1
            continue
          }
          // A style: up to the `}` that closes the argument.
          var depth = 0
          probe += 1
          while let byte = at(probe) {
            if byte == UInt8(ascii: "'") {
              probe += 1
              while let quoted = at(probe), quoted != UInt8(ascii: "'") { probe += 1 }
            } else if byte == UInt8(ascii: "{") {
              depth += 1
            } else if byte == UInt8(ascii: "}") {
              if depth == 0 { break }
              depth -= 1
            }
            probe += 1
          }
          guard at(probe) == UInt8(ascii: "}") else {
            // The style runs to the end: no `}` ever closes this argument,
            // so it and everything after it are text (and the next `{` is
            // not scanned to the end again).
            failedAt = index
            break parsing
          }
          arguments.append(
            Argument(
              placeholder: TextAtom(
                range: index..<probe + 1, kind: .braces, isNumeric: type == "number", name: argument),
              owner: owner))
          index = probe + 1
        case UInt8(ascii: "}") where owner >= 0:
          branches[owner].content = branches[owner].content.lowerBound..<index
          stack.removeLast()
          index += 1
        case UInt8(ascii: "#") where poundNumeric:
          arguments.append(
            Argument(
              placeholder: TextAtom(range: index..<index + 1, kind: .pound, isNumeric: true), owner: owner))
          index += 1
        default:
          index += 1
        }
      case .complex(let start, let type, let argument, let owner, let poundNumeric):
        skipSpaces(&index)
        guard let byte = at(index) else { break parsing }
        if byte == UInt8(ascii: "}") {
          stack.removeLast()
          if type != "select" { pluralNames[argument, default: 1] -= 1 }
          arguments.append(
            Argument(
              placeholder: TextAtom(
                range: start..<index + 1, kind: .icuComplex, isNumeric: type != "select", name: argument),
              owner: owner))
          index += 1
          continue
        }
        let selectorStart = index
        while let next = at(index), next != UInt8(ascii: "{"), next != UInt8(ascii: "}"), next > 0x20 { index += 1 }
        let selector = String(decoding: bytes[selectorStart..<index], as: UTF8.self)
        skipSpaces(&index)
        guard !selector.isEmpty, at(index) == UInt8(ascii: "{") else {
          failedAt = start
          break parsing
        }
        branches.append(Branch(content: index + 1..<index + 1, variant: type + ":" + selector, owner: owner))
        stack.append(.message(owner: branches.count - 1, poundNumeric: poundNumeric))
        index += 1
      }
    }
    if stack.count > 1 {
      // The outermost argument still open makes the rest text.
      for frame in stack {
        if case .complex(let start, _, _, _, _) = frame {
          failedAt = min(failedAt ?? start, start)
          break
        }
      }
    }
    if let failedAt {
      arguments.removeAll { $0.placeholder.range.upperBound > failedAt }
      let kept = branches.firstIndex { $0.content.lowerBound > failedAt } ?? branches.count
      branches.removeSubrange(kept...)
    }
    arguments.sort { $0.placeholder.range.lowerBound < $1.placeholder.range.lowerBound }
  }
}
