import BidiTestSupport
import XCTest

@testable import Markdown

/// `ContainerStack` (slots kept after a pop and written over by the next
/// push, blank-line breakers kept at the end) against a plain array of
/// nodes: the same count, kinds and children after random pushes, pops and
/// changes, and the same first blank-line breaker from every index.
final class ContainerStackTests: XCTestCase {
  static let kinds: [ContainerStack.Kind] = [
    .blockQuote, .list(ListData(ordered: false, bulletChar: 0x2D, delimiter: 0)),
    .item(ListData(ordered: true, bulletChar: 0, delimiter: 0x2E)), .paragraph,
    .fencedCode(fence: 0x60, length: 3, offset: 0), .indentedCode, .html(1), .html(7), .table(columns: 2),
  ]

  /// cmark's check_open_blocks for a blank line without indentation left.
  static func continuesAtBlankLine(_ kind: ContainerStack.Kind, children: Int) -> Bool {
    switch kind {
    case .document, .list, .fencedCode, .indentedCode: return true
    case .item: return children > 0
    case .html(let kind): return kind <= 5
    case .blockQuote, .paragraph, .table: return false
    }
  }

  func testAgainstAnArray() {
    var random = SeededGenerator(seed: 47)
    var operations = 0
    for _ in 0..<300 {
      var stack = ContainerStack()
      var model: [(kind: ContainerStack.Kind, children: Int)] = [(.document, 0)]
      for _ in 0..<Int.random(in: 1...60, using: &random) {
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4:
          let kind = Self.kinds.randomElement(using: &random)!
          stack.push(kind, line: 0)
          model[model.count - 1].children += 1
          model.append((kind, 0))
        case 4..<7 where model.count > 1:
          stack.pop()
          model.removeLast()
        case 7:
          stack.addClosedChild()
          model[model.count - 1].children += 1
        case 8 where model[model.count - 1].children > 0:
          stack.removeChild()
          model[model.count - 1].children -= 1
        case 9 where model.count > 1:
          let kind = Self.kinds.randomElement(using: &random)!
          stack.setKind(kind)
          model[model.count - 1].kind = kind
        default:
          continue
        }
        operations += 1
        XCTAssertEqual(stack.count, model.count)
        XCTAssertEqual(stack.top, model.count - 1)
        for index in 0..<model.count {
          XCTAssertEqual(stack[index].kind, model[index].kind)
          XCTAssertEqual(stack[index].children, model[index].children)
          let breaker = (index..<model.count).first {
            !Self.continuesAtBlankLine(model[$0].kind, children: model[$0].children)
          }
          XCTAssertEqual(stack.firstBlankBreaker(from: index), breaker)
        }
      }
    }
    XCTAssertGreaterThan(operations, 5000)
  }
}
