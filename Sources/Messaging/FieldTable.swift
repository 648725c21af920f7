/// An AMQP field table: message headers, or the arguments of a queue, exchange, binding or consumer.
///
/// Keys keep the order they were added in, which is the order on the wire; setting an existing key replaces its
/// value in place. Equality compares entries in order. Read values with the accessors of ``FieldValue``:
/// `headers["x-attempts"]?.intValue`.
public struct FieldTable: Sendable, Hashable, ExpressibleByDictionaryLiteral, Sequence {
    /// One entry, as the sequence yields it.
    public typealias Element = (key: String, value: FieldValue)

    package struct Entry: Sendable, Hashable {
        package var key: String
        package var value: FieldValue
    }

    package private(set) var entries: [Entry]

    /// An empty table.
    public init() {
        entries = []
    }

    /// A table with `elements` in order; a repeated key keeps its first position and its last value.
    public init(_ elements: some Sequence<(String, FieldValue)>) {
        entries = []
        // Positions by key, so that thousands of headers cost linear time rather than quadratic.
        var positions: [String: Int] = [:]
        for (key, value) in elements {
            if let position = positions[key] {
                entries[position].value = value
            } else {
                positions[key] = entries.count
                entries.append(Entry(key: key, value: value))
            }
        }
    }

    /// A table from a literal, in the literal's order.
    public init(dictionaryLiteral elements: (String, FieldValue)...) {
        self.init(elements)
    }

    /// The value for `key`; assigning `nil` removes the entry.
    public subscript(key: String) -> FieldValue? {
        get { entries.first { $0.key == key }?.value }
        set {
            let index = entries.firstIndex { $0.key == key }
            switch (index, newValue) {
            case (let index?, let value?): entries[index].value = value
            case (let index?, nil): entries.remove(at: index)
            case (nil, let value?): entries.append(Entry(key: key, value: value))
            case (nil, nil): break
            }
        }
    }

    /// The number of entries.
    public var count: Int { entries.count }

    /// Whether the table has no entries.
    public var isEmpty: Bool { entries.isEmpty }

    /// The keys in order.
    public var keys: [String] { entries.map(\.key) }

    /// Iterates the entries in order.
    public func makeIterator() -> Iterator {
        Iterator(base: entries.makeIterator())
    }

    /// Yields the entries of a table in order.
    public struct Iterator: IteratorProtocol {
        fileprivate var base: IndexingIterator<[Entry]>

        /// The next entry, or `nil` after the last.
        public mutating func next() -> Element? {
            base.next().map { ($0.key, $0.value) }
        }
    }

    /// Appends without looking for an existing key: for decoding, where the wire order is kept as it is.
    package mutating func appendDecoded(key: String, value: FieldValue) {
        entries.append(Entry(key: key, value: value))
    }

    package mutating func reserveCapacity(_ capacity: Int) {
        entries.reserveCapacity(capacity)
    }
}
