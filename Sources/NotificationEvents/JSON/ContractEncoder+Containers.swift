/// The containers ``ContractEncoder`` hands a value's `encode(to:)`: each writes what it is given through the
/// encoder.
extension ContractEncoder {
    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: ContractEncoder

        var codingPath: [any CodingKey] { encoder.codingPath }

        mutating func encodeNil(forKey key: Key) { encoder.add(key.stringValue) { JSONText.append("null", to: &$0) } }
        mutating func encode(_ value: Bool, forKey key: Key) {
            encoder.add(key.stringValue) { value ? JSONText.append("true", to: &$0) : JSONText.append("false", to: &$0) }
        }
        mutating func encode(_ value: String, forKey key: Key) {
            encoder.add(key.stringValue) { JSONText.appendString(value, to: &$0) }
        }
        mutating func encode(_ value: Double, forKey key: Key) throws {
            try encoder.add(key.stringValue, encoder.float(value, at: key))
        }
        mutating func encode(_ value: Float, forKey key: Key) throws {
            try encoder.add(key.stringValue, encoder.float(value, at: key))
        }
        mutating func encode(_ value: Int, forKey key: Key) { integer(value, key) }
        mutating func encode(_ value: Int8, forKey key: Key) { integer(value, key) }
        mutating func encode(_ value: Int16, forKey key: Key) { integer(value, key) }
        mutating func encode(_ value: Int32, forKey key: Key) { integer(value, key) }
        mutating func encode(_ value: Int64, forKey key: Key) { integer(value, key) }
        mutating func encode(_ value: UInt, forKey key: Key) { integer(value, key) }
        mutating func encode(_ value: UInt8, forKey key: Key) { integer(value, key) }
        mutating func encode(_ value: UInt16, forKey key: Key) { integer(value, key) }
        mutating func encode(_ value: UInt32, forKey key: Key) { integer(value, key) }
        mutating func encode(_ value: UInt64, forKey key: Key) { integer(value, key) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try encoder.add(key.stringValue, value, codingKey: key)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey> {
            encoder.addDeferred(key.stringValue, codingKey: key).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            encoder.addDeferred(key.stringValue, codingKey: key).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            encoder.addDeferred("super", codingKey: FieldKey("super"))
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            encoder.addDeferred(key.stringValue, codingKey: key)
        }

        private func integer(_ value: some BinaryInteger, _ key: Key) {
            encoder.add(key.stringValue) { JSONText.appendInteger(value, to: &$0) }
        }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let encoder: ContractEncoder

        var codingPath: [any CodingKey] { encoder.codingPath }
        var count: Int { encoder.elementCount }

        private var nextKey: ArrayIndexKey { ArrayIndexKey(count) }

        mutating func encodeNil() { add { JSONText.append("null", to: &$0) } }
        mutating func encode(_ value: Bool) { add { value ? JSONText.append("true", to: &$0) : JSONText.append("false", to: &$0) } }
        mutating func encode(_ value: String) { add { JSONText.appendString(value, to: &$0) } }
        mutating func encode(_ value: Double) throws { try add(encoder.float(value, at: nextKey)) }
        mutating func encode(_ value: Float) throws { try add(encoder.float(value, at: nextKey)) }
        mutating func encode(_ value: Int) { integer(value) }
        mutating func encode(_ value: Int8) { integer(value) }
        mutating func encode(_ value: Int16) { integer(value) }
        mutating func encode(_ value: Int32) { integer(value) }
        mutating func encode(_ value: Int64) { integer(value) }
        mutating func encode(_ value: UInt) { integer(value) }
        mutating func encode(_ value: UInt8) { integer(value) }
        mutating func encode(_ value: UInt16) { integer(value) }
        mutating func encode(_ value: UInt32) { integer(value) }
        mutating func encode(_ value: UInt64) { integer(value) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try encoder.add(nil, value, codingKey: nextKey)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey> {
            encoder.addDeferred(nil, codingKey: nextKey).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            encoder.addDeferred(nil, codingKey: nextKey).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            encoder.addDeferred(nil, codingKey: nextKey)
        }

        private mutating func add(_ write: (inout [UInt8]) throws -> Void) rethrows {
            try encoder.add(nil, write)
        }

        private mutating func integer(_ value: some BinaryInteger) {
            add { JSONText.appendInteger(value, to: &$0) }
        }
    }

    struct SingleValueContainer: SingleValueEncodingContainer {
        let encoder: ContractEncoder

        var codingPath: [any CodingKey] { encoder.codingPath }

        mutating func encodeNil() { encoder.setSingle { JSONText.append("null", to: &$0) } }
        mutating func encode(_ value: Bool) {
            encoder.setSingle { value ? JSONText.append("true", to: &$0) : JSONText.append("false", to: &$0) }
        }
        mutating func encode(_ value: String) { encoder.setSingle { JSONText.appendString(value, to: &$0) } }
        mutating func encode(_ value: Double) throws { try encoder.setSingle(encoder.float(value, at: nil)) }
        mutating func encode(_ value: Float) throws { try encoder.setSingle(encoder.float(value, at: nil)) }
        mutating func encode(_ value: Int) { integer(value) }
        mutating func encode(_ value: Int8) { integer(value) }
        mutating func encode(_ value: Int16) { integer(value) }
        mutating func encode(_ value: Int32) { integer(value) }
        mutating func encode(_ value: Int64) { integer(value) }
        mutating func encode(_ value: UInt) { integer(value) }
        mutating func encode(_ value: UInt8) { integer(value) }
        mutating func encode(_ value: UInt16) { integer(value) }
        mutating func encode(_ value: UInt32) { integer(value) }
        mutating func encode(_ value: UInt64) { integer(value) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try encoder.setSingle(value)
        }

        private func integer(_ value: some BinaryInteger) {
            encoder.setSingle { JSONText.appendInteger(value, to: &$0) }
        }
    }
}
