import Foundation

/// Decodes the contract's types from a parsed ``JSONValue`` with errors in the contract's short form:
/// `expected integer, found string`. It never puts a value into an error: a value may be a user's typed text.
///
/// It follows JSON Schema's view of numbers (an integer field accepts `1.0`) so the decoder and the schemas
/// agree, reads dates as ``InternetDate``, hands ``JSONValue`` fields over as parsed, and, like CloudEvents,
/// treats `null` in an optional field as absent.
struct ContractDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, at codingPath: [any CodingKey]) throws -> T {
        if T.self == JSONValue.self, let parsed = value as? T { return parsed }
        if T.self == Date.self {
            guard case .string(let text) = value else { throw mismatch(codingPath, expected: "string", found: value) }
            guard let date = InternetDate.parse(text), let result = date as? T else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "expected RFC 3339 date-time"))
            }
            return result
        }
        if let scalarType = type as? any ContractScalar.Type {
            guard let scalar = scalarType.init(json: value) as? T else {
                throw mismatch(codingPath, expected: scalarType.kind, found: value)
            }
            return scalar
        }
        return try T(from: ContractDecoder(value: value, codingPath: codingPath))
    }

    static func mismatch(_ codingPath: [any CodingKey], expected: String, found value: JSONValue) -> DecodingError {
        var problem = "expected \(expected), found \(value.kind)"
        switch value {
        case .integer where expected == "integer": problem = "integer out of range"
        case .number(let number) where expected == "integer" && number.rounded() == number: problem = "integer out of range"
        default: break
        }
        return DecodingError.typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: problem))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw Self.mismatch(codingPath, expected: "object", found: value) }
        return KeyedDecodingContainer(KeyedContainer(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw Self.mismatch(codingPath, expected: "array", found: value) }
        return UnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(value: value, codingPath: codingPath)
    }
}

extension JSONValue {
    /// The JSON kind of the value, as the contract's error messages name it.
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer, .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decode(type, key) }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type, key) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey> {
        try ContractDecoder(value: member(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ContractDecoder(value: member(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ContractDecoder(value: members["super"] ?? .null, codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ContractDecoder(value: try member(key), codingPath: codingPath + [key])
    }

    private func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        try ContractDecoder.decode(type, from: member(key), at: codingPath + [key])
    }

    private func member(_ key: Key) throws -> JSONValue {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
        }
        return value
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    mutating func decodeNil() throws -> Bool {
        guard try current() == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try decode(type, ()) }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decode(type, ()) }
    mutating func decode(_ type: String.Type) throws -> String { try decode(type, ()) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decode(type, ()) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decode(type, ()) }
    mutating func decode(_ type: Int.Type) throws -> Int { try decode(type, ()) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decode(type, ()) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decode(type, ()) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decode(type, ()) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decode(type, ()) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decode(type, ()) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decode(type, ()) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decode(type, ()) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decode(type, ()) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decode(type, ()) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey> {
        let container = try elementDecoder().container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try elementDecoder().unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = try elementDecoder()
        currentIndex += 1
        return decoder
    }

    /// The generic decode under another name, so the concrete overloads above can call it.
    private mutating func decode<T: Decodable>(_ type: T.Type, _: Void) throws -> T {
        let value = try ContractDecoder.decode(type, from: current(), at: codingPath + [ArrayIndexKey(currentIndex)])
        currentIndex += 1
        return value
    }

    private func elementDecoder() throws -> ContractDecoder {
        ContractDecoder(value: try current(), codingPath: codingPath + [ArrayIndexKey(currentIndex)])
    }

    private func current() throws -> JSONValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self, .init(codingPath: codingPath + [ArrayIndexKey(currentIndex)], debugDescription: "missing"))
        }
        return elements[currentIndex]
    }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decode(type, ()) }

    func decode(_ type: Bool.Type) throws -> Bool { try decode(type, ()) }
    func decode(_ type: String.Type) throws -> String { try decode(type, ()) }
    func decode(_ type: Double.Type) throws -> Double { try decode(type, ()) }
    func decode(_ type: Float.Type) throws -> Float { try decode(type, ()) }
    func decode(_ type: Int.Type) throws -> Int { try decode(type, ()) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decode(type, ()) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decode(type, ()) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decode(type, ()) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decode(type, ()) }
    func decode(_ type: UInt.Type) throws -> UInt { try decode(type, ()) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decode(type, ()) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decode(type, ()) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decode(type, ()) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decode(type, ()) }

    private func decode<T: Decodable>(_ type: T.Type, _: Void) throws -> T {
        try ContractDecoder.decode(type, from: value, at: codingPath)
    }
}

/// The JSON scalars a Swift value can be read from, with JSON Schema's number rules.
protocol ContractScalar {
    /// The kind an error names when the JSON value does not fit, e.g. `integer`.
    static var kind: String { get }
    init?(json: JSONValue)
}

extension String: ContractScalar {
    static var kind: String { "string" }
    init?(json: JSONValue) {
        guard case .string(let text) = json else { return nil }
        self = text
    }
}

extension Bool: ContractScalar {
    static var kind: String { "boolean" }
    init?(json: JSONValue) {
        guard case .bool(let flag) = json else { return nil }
        self = flag
    }
}

extension Double: ContractScalar {
    static var kind: String { "number" }
    init?(json: JSONValue) {
        switch json {
        case .integer(let integer): self = Double(integer)
        case .number(let number): self = number
        default: return nil
        }
    }
}

extension Float: ContractScalar {
    static var kind: String { "number" }
    init?(json: JSONValue) {
        guard let number = Double(json: json), Float(number).isFinite else { return nil }
        self = Float(number)
    }
}

/// JSON Schema counts a number with a zero fraction, such as `1.0`, as an integer; so does the contract.
extension ContractScalar where Self: FixedWidthInteger {
    static var kind: String { "integer" }
    init?(json: JSONValue) {
        switch json {
        case .integer(let integer):
            guard let value = Self(exactly: integer) else { return nil }
            self = value
        case .number(let number):
            guard let value = Self(exactly: number) else { return nil }
            self = value
        default: return nil
        }
    }
}

extension Int: ContractScalar {}
extension Int8: ContractScalar {}
extension Int16: ContractScalar {}
extension Int32: ContractScalar {}
extension Int64: ContractScalar {}
extension UInt: ContractScalar {}
extension UInt8: ContractScalar {}
extension UInt16: ContractScalar {}
extension UInt32: ContractScalar {}
extension UInt64: ContractScalar {}
