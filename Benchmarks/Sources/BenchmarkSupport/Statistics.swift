/// The median of a non-empty list.
public func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  let mid = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/// The `p`-th percentile (0–100) of a non-empty list, nearest-rank method:
/// the smallest value with at least p% of the values at or below it.
public func percentile(_ values: [Double], _ p: Double) -> Double {
  let sorted = values.sorted()
  let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
  return sorted[min(max(rank, 1), sorted.count) - 1]
}
