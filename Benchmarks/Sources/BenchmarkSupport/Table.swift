/// A plain-text table: a header row, then rows, columns right-aligned except
/// the first.
public struct Table {
  public var header: [String]
  public var rows: [[String]] = []

  public init(_ header: [String]) {
    self.header = header
  }

  public mutating func add(_ row: [String]) {
    rows.append(row)
  }

  public func render() -> String {
    let all = [header] + rows
    let widths = header.indices.map { column in
      all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0
    }
    func line(_ cells: [String]) -> String {
      cells.enumerated().map { column, cell in
        let pad = String(repeating: " ", count: widths[column] - cell.count)
        return column == 0 ? cell + pad : pad + cell
      }.joined(separator: "  ")
    }
    let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
    return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
  }
}

/// `value` with `digits` decimals.
public func fixed(_ value: Double, _ digits: Int) -> String {
  guard value.isFinite else { return "-" }
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let rounded = (abs(value) * scale).rounded()
  let whole = Int(rounded / scale)
  let fraction = Int(rounded) - whole * Int(scale)
  let sign = value < 0 && rounded != 0 ? "-" : ""
  guard digits > 0 else { return sign + String(whole) }
  let fractionText = String(fraction)
  return sign + String(whole) + "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
}
