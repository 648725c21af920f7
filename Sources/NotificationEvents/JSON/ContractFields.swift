/// The members of a JSON object being read: Codable's keyed containers (for any decoder) and ``TapeObject``
/// (for the contract's own decoder) both provide them.
///
/// The contract's types read their members through it in one generic initializer, `init(fields:)`, so each
/// type's rules are written once: `init(from:)` runs it over a keyed container, and ``ContractObject/read(from:at:)``
/// runs it over a ``TapeObject``, compiled for that type without Codable's boxes and run-time type lookups
/// (which cost more than the reading itself).
package protocol ContractFields<Key> {
    associatedtype Key: CodingKey

    var codingPath: [any CodingKey] { get }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool
    func decode(_ type: String.Type, forKey key: Key) throws -> String
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool?
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String?
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double?
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int?
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64?
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T?
}

extension KeyedDecodingContainer: ContractFields {}

/// A contract type that ``ContractDecoder`` reads straight from a ``JSONTape``.
protocol ContractObject: Decodable {
    /// Reads the object at `node` of `tape`; each type implements it as `Self(fields: TapeObject(…))`, so the
    /// compiler specializes its `init(fields:)` for the tape.
    static func read(from tape: JSONTape, at node: Int) throws -> Self
}
