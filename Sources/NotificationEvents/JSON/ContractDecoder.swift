import Foundation

/// Decodes the contract's types from a ``JSONTape`` with errors in the contract's short form:
/// `expected integer, found string`. It never puts a value into an error: a value may be a user's typed text.
///
/// It follows JSON Schema's view of numbers (an integer field accepts `1.0`) so the decoder and the schemas
/// agree, reads dates as ``InternetDate``, hands ``JSONValue`` fields over as parsed, and, like CloudEvents,
/// treats `null` in an optional field as absent.
///
/// Coding paths are worked out from the tape only when asked for (in practice, for an error), so decoding a
/// valid document builds none.
struct ContractDecoder: Decoder {
    let tape: JSONTape
    /// The value this decoder reads.
    let node: Int
    /// The value whose place in the document is this decoder's coding path: `node`, except for the `super` of a
    /// keyed container that has none, which reads as null at the container's place.
    let place: Int

    var codingPath: [any CodingKey] { tape.codingPath(to: place) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    static func decode<T: Decodable>(_ type: T.Type, from tape: JSONTape, at node: Int, place: Int? = nil) throws -> T {
        // The types read other than through `init(from:)`, recognised by metatype: a cast would cost more.
        if T.self == JSONValue.self { return same(tape.value(at: node), as: T.self) }
        if ObjectIdentifier(T.self) == stringDictionaryType {
            guard tape.nodes[node].kind == .object else {
                throw mismatch(tape.codingPath(to: place ?? node), expected: "object", in: tape, at: node)
            }
            return same(tape.members(at: node), as: T.self)
        }
        if T.self == RawJSON.self { return same(RawJSON(tape, node: node), as: T.self) }
        let place = place ?? node
        if T.self == Date.self {
            let text = try String(tape: tape, node: node, place: place)
            return same(try converted(InternetDate.parse(text), tape, place, "RFC 3339 date-time"), as: T.self)
        }
        // As Foundation's decoder reads them, so a handler's state holding them reads back what was stored.
        if T.self == Data.self {
            let text = try String(tape: tape, node: node, place: place)
            return same(try converted(Data(base64Encoded: text), tape, place, "base64"), as: T.self)
        }
        if T.self == URL.self {
            let text = try String(tape: tape, node: node, place: place)
            return same(try converted(URL(string: text), tape, place, "URL"), as: T.self)
        }
        if T.self == Decimal.self {
            _ = try Double(tape: tape, node: node, place: place)
            return same(try converted(Decimal(string: tape.numberText(at: node)), tape, place, "decimal number"), as: T.self)
        }
        // A value read in another's place (an absent `super`) keeps to `init(from:)`, which knows the place.
        if place == node, let object = T.self as? any ContractObject.Type {
            func read<Object: ContractObject>(_ type: Object.Type) throws -> T {
                same(try Object.read(from: tape, at: node), as: T.self)
            }
            return try read(object)
        }
        return try T(from: ContractDecoder(tape: tape, node: node, place: place))
    }

    /// `[String: JSONValue]`, whose metatype would otherwise be looked up at run time on every comparison.
    private static let stringDictionaryType = ObjectIdentifier([String: JSONValue].self)

    /// `value` as `T`, which is `U`: a cast would look the types up at run time.
    private static func same<T, U>(_ value: U, as type: T.Type) -> T {
        unsafeBitCast(value, to: T.self)
    }

    /// `value`, or an error saying that the value at `place` is not `description`.
    private static func converted<T>(_ value: T?, _ tape: JSONTape, _ place: Int, _ description: String) throws -> T {
        guard let value else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: tape.codingPath(to: place), debugDescription: "expected \(description)"))
        }
        return value
    }

    /// Reads the scalar at `node` as `T`; `place` is where an error says it is (default: `node`).
    static func scalar<T: ContractScalar>(_ type: T.Type, in tape: JSONTape, at node: Int, place: Int? = nil) throws -> T {
        try T(tape: tape, node: node, place: place ?? node)
    }

    static func mismatch(_ codingPath: [any CodingKey], expected: String, in tape: JSONTape, at node: Int) -> DecodingError {
        var problem = "expected \(expected), found \(tape.kindName(at: node))"
        switch tape.nodes[node].kind {
        case .integer where expected == "integer": problem = "integer out of range"
        case .number where expected == "integer" && tape.double(at: node).rounded() == tape.double(at: node):
            problem = "integer out of range"
        default: break
        }
        return DecodingError.typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: problem))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard tape.nodes[node].kind == .object else {
            throw Self.mismatch(codingPath, expected: "object", in: tape, at: node)
        }
        return KeyedDecodingContainer(TapeObject(tape: tape, object: node))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard tape.nodes[node].kind == .array else {
            throw Self.mismatch(codingPath, expected: "array", in: tape, at: node)
        }
        return UnkeyedContainer(tape: tape, array: node)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(tape: tape, node: node, place: place)
    }
}

extension JSONTape {
    /// The coding path of the value at `target`: the keys and positions that lead to it from the document's top.
    func codingPath(to target: Int) -> [any CodingKey] {
        var path: [any CodingKey] = []
        var current = 0
        while current != target, current < nodes.count, target < nodes[current].next {
            var child = current + 1
            var position = 0
            let isObject = nodes[current].kind == .object
            // An object's members are key, value pairs: step over the key to reach the value.
            if isObject { child += 1 }
            while nodes[child].next <= target {
                child = nodes[child].next + (isObject ? 1 : 0)
                position += 1
            }
            path.append(isObject ? FieldKey(string(at: child - 1)) : ArrayIndexKey(position))
            current = child
        }
        return path
    }
}

/// The members of an object of a ``JSONTape``, looked up by key: Codable's keyed container for
/// ``ContractDecoder``, and the ``ContractFields`` a ``ContractObject`` reads itself from.
struct TapeObject<Key: CodingKey>: KeyedDecodingContainerProtocol, ContractFields {
    let tape: JSONTape
    let object: Int
    /// The values by key, for objects too large to search one key at a time.
    private let index: [String: Int]?

    /// From this many members on, keys are looked up through a dictionary.
    private static var indexedMemberCount: Int { 16 }

    /// The object at `node`, or a mismatch error when the value there is not an object.
    init(tape: JSONTape, objectAt node: Int) throws {
        guard tape.nodes[node].kind == .object else {
            throw ContractDecoder.mismatch(tape.codingPath(to: node), expected: "object", in: tape, at: node)
        }
        self.init(tape: tape, object: node)
    }

    fileprivate init(tape: JSONTape, object: Int) {
        self.tape = tape
        self.object = object
        if tape.nodes[object].count >= Self.indexedMemberCount {
            var index: [String: Int] = Dictionary(minimumCapacity: tape.nodes[object].count)
            tape.forEachMember(ofObjectAt: object) { key, value in index[tape.string(at: key)] = value }
            self.index = index
        } else {
            self.index = nil
        }
    }

    var codingPath: [any CodingKey] { tape.codingPath(to: object) }

    var allKeys: [Key] {
        var keys: [Key] = []
        tape.forEachMember(ofObjectAt: object) { key, _ in
            if let codingKey = Key(stringValue: tape.string(at: key)) { keys.append(codingKey) }
        }
        return keys
    }

    func contains(_ key: Key) -> Bool { lookup(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { tape.nodes[try member(key)].kind == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try ContractDecoder.decode(type, from: tape, at: member(key))
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try scalar(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try scalar(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try scalar(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try scalar(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try scalar(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try scalar(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try scalar(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try scalar(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try scalar(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try scalar(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try scalar(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try scalar(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try scalar(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try scalar(type, key) }

    // One lookup per optional field instead of the protocol's default three (contains, decodeNil, decode).
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = presentValue(key) else { return nil }
        return try ContractDecoder.decode(type, from: tape, at: value)
    }

    // Written out per type: a generic helper returning `T?` would look `Optional<T>` up at run time.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let value = presentValue(key) else { return nil }
        return try Bool(tape: tape, node: value, place: value)
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let value = presentValue(key) else { return nil }
        return try String(tape: tape, node: value, place: value)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let value = presentValue(key) else { return nil }
        return try Double(tape: tape, node: value, place: value)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let value = presentValue(key) else { return nil }
        return try Int(tape: tape, node: value, place: value)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        guard let value = presentValue(key) else { return nil }
        return try Int64(tape: tape, node: value, place: value)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey> {
        try decoder(for: member(key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(for: member(key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        guard let value = tape.member(named: "super", inObjectAt: object) else {
            return ContractDecoder(tape: tape, node: tape.nullNode, place: object)
        }
        return decoder(for: value)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder(for: try member(key))
    }

    private func decoder(for value: Int) -> ContractDecoder {
        ContractDecoder(tape: tape, node: value, place: value)
    }

    private func scalar<T: ContractScalar>(_ type: T.Type, _ key: Key) throws -> T {
        try ContractDecoder.scalar(type, in: tape, at: member(key))
    }

    /// The value at `key` unless it is absent or null.
    private func presentValue(_ key: Key) -> Int? {
        guard let value = lookup(key), tape.nodes[value].kind != .null else { return nil }
        return value
    }

    private func lookup(_ key: Key) -> Int? {
        if let index { return index[key.stringValue] }
        return tape.member(named: key.stringValue, inObjectAt: object)
    }

    private func member(_ key: Key) throws -> Int {
        guard let value = lookup(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
        }
        return value
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let tape: JSONTape
    let array: Int
    private(set) var currentIndex = 0
    /// The node of the element at `currentIndex`.
    private var position: Int

    init(tape: JSONTape, array: Int) {
        self.tape = tape
        self.array = array
        self.position = array + 1
    }

    var codingPath: [any CodingKey] { tape.codingPath(to: array) }
    var count: Int? { tape.nodes[array].count }
    var isAtEnd: Bool { currentIndex >= tape.nodes[array].count }

    mutating func decodeNil() throws -> Bool {
        guard tape.nodes[try current()].kind == .null else { return false }
        advance()
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try ContractDecoder.decode(type, from: tape, at: current())
        advance()
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try scalar(type) }
    mutating func decode(_ type: String.Type) throws -> String { try scalar(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try scalar(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try scalar(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try scalar(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try scalar(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try scalar(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try scalar(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try scalar(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try scalar(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try scalar(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try scalar(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try scalar(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try scalar(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey> {
        let container = try elementDecoder().container(keyedBy: type)
        advance()
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try elementDecoder().unkeyedContainer()
        advance()
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = try elementDecoder()
        advance()
        return decoder
    }

    private mutating func scalar<T: ContractScalar>(_ type: T.Type) throws -> T {
        let value = try ContractDecoder.scalar(type, in: tape, at: current())
        advance()
        return value
    }

    private func elementDecoder() throws -> ContractDecoder {
        let element = try current()
        return ContractDecoder(tape: tape, node: element, place: element)
    }

    private func current() throws -> Int {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self, .init(codingPath: codingPath + [ArrayIndexKey(currentIndex)], debugDescription: "missing"))
        }
        return position
    }

    private mutating func advance() {
        position = tape.nodes[position].next
        currentIndex += 1
    }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
    let tape: JSONTape
    let node: Int
    let place: Int

    var codingPath: [any CodingKey] { tape.codingPath(to: place) }

    func decodeNil() -> Bool { tape.nodes[node].kind == .null }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try ContractDecoder.decode(type, from: tape, at: node, place: place)
    }

    func decode(_ type: Bool.Type) throws -> Bool { try scalar(type) }
    func decode(_ type: String.Type) throws -> String { try scalar(type) }
    func decode(_ type: Double.Type) throws -> Double { try scalar(type) }
    func decode(_ type: Float.Type) throws -> Float { try scalar(type) }
    func decode(_ type: Int.Type) throws -> Int { try scalar(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try scalar(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try scalar(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try scalar(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try scalar(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try scalar(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try scalar(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try scalar(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try scalar(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try scalar(type) }

    private func scalar<T: ContractScalar>(_ type: T.Type) throws -> T {
        try ContractDecoder.scalar(type, in: tape, at: node, place: place)
    }
}
