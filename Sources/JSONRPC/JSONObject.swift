/// The members of a JSON object: unique keys, kept in insertion order.
///
/// Lookup is a linear scan while the object is small (as LSP objects are) and
/// a hash lookup once it grows past `indexThreshold` members, so building or
/// reading a large object stays linear overall. Equality ignores member order,
/// as JSON object equality does.
package struct JSONObject: Sendable {
  package private(set) var keys: [String] = []
  package private(set) var values: [JSONValue] = []
  /// Key → position, maintained only once `keys.count > indexThreshold`.
  private var index: [String: Int]? = nil

  private static var indexThreshold: Int { 16 }

  package init() {}

  /// Members in order; a later duplicate key replaces the earlier value in place.
  package init(_ members: some Sequence<(String, JSONValue)>) {
    for (key, value) in members { self[key] = value }
  }

  package var count: Int { keys.count }
  package var isEmpty: Bool { keys.isEmpty }

  private func position(of key: String) -> Int? {
    if let index { return index[key] }
    return keys.firstIndex(of: key)
  }

  /// The value of `key`; assigning nil removes the member, assigning to a new
  /// key appends it, assigning to an existing key replaces it in place.
  package subscript(key: String) -> JSONValue? {
    get { position(of: key).map { values[$0] } }
    set {
      if let newValue {
        if let position = position(of: key) {
          values[position] = newValue
        } else {
          keys.append(key)
          values.append(newValue)
          if index != nil {
            index?[key] = keys.count - 1
          } else if keys.count > Self.indexThreshold {
            rebuildIndex()
          }
        }
      } else {
        removeValue(forKey: key)
      }
    }
  }

  /// Removes `key` and returns its value (linear in the number of members).
  @discardableResult
  package mutating func removeValue(forKey key: String) -> JSONValue? {
    guard let position = position(of: key) else { return nil }
    keys.remove(at: position)
    let value = values.remove(at: position)
    if index != nil {
      if keys.count > Self.indexThreshold { rebuildIndex() } else { index = nil }
    }
    return value
  }

  private mutating func rebuildIndex() {
    var index: [String: Int] = [:]
    index.reserveCapacity(keys.count)
    for (position, key) in keys.enumerated() { index[key] = position }
    self.index = index
  }

  mutating func reserveCapacity(_ capacity: Int) {
    keys.reserveCapacity(capacity)
    values.reserveCapacity(capacity)
  }
}

extension JSONObject: Sequence {
  package typealias Element = (key: String, value: JSONValue)

  package struct Iterator: IteratorProtocol {
    fileprivate var keys: IndexingIterator<[String]>
    fileprivate var values: IndexingIterator<[JSONValue]>

    package mutating func next() -> Element? {
      guard let key = keys.next(), let value = values.next() else { return nil }
      return (key, value)
    }
  }

  package func makeIterator() -> Iterator {
    Iterator(keys: keys.makeIterator(), values: values.makeIterator())
  }

  package var underestimatedCount: Int { keys.count }
}

extension JSONObject: Hashable {
  package static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    guard lhs.count == rhs.count else { return false }
    for (key, value) in lhs {
      guard rhs[key] == value else { return false }
    }
    return true
  }

  /// Order-independent: combines the members' hashes commutatively.
  package func hash(into hasher: inout Hasher) {
    var combined = 0
    for (key, value) in self {
      var member = Hasher()
      member.combine(key)
      member.combine(value)
      combined ^= member.finalize()
    }
    hasher.combine(count)
    hasher.combine(combined)
  }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
  package init(dictionaryLiteral elements: (String, JSONValue)...) {
    self.init(elements)
  }
}
