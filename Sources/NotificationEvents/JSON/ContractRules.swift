/// The rules of the schemas beyond shapes and types (non-empty strings, ranges, no repeated items), as
/// decoding steps. Each refusal names the field and the rule, never the value.
extension ContractFields {
    /// A required string that must not be empty, as the schemas' `"minLength": 1`.
    func decodeNonEmpty(_ key: Key) throws -> String {
        let text = try decode(String.self, forKey: key)
        guard !text.isEmpty else { throw violation(key, "must not be empty") }
        return text
    }

    /// A required identifier: a string without U+0000, as the schemas' `"pattern": "^[^\\u0000]*$"`, and unless
    /// `mayBeEmpty` not empty. Identifiers become state keys, message ids and routing keys, and whatever reads them
    /// as C strings (logs, tools, other clients) stops at a NUL, where `a<NUL>b` would name the same thing as `a`.
    func decodeIdentifier(_ key: Key, mayBeEmpty: Bool = false) throws -> String {
        let text = try mayBeEmpty ? decode(String.self, forKey: key) : decodeNonEmpty(key)
        guard !text.unicodeScalars.contains("\u{0}") else { throw violation(key, "must not contain U+0000") }
        return text
    }

    /// A required number within `range`, as the schemas' `minimum` and `maximum`.
    func decode<Number: Decodable & Comparable>(
        _ type: Number.Type, forKey key: Key, in range: ClosedRange<Number>
    ) throws -> Number {
        let number = try decode(type, forKey: key)
        guard range.contains(number) else {
            throw violation(key, "must be between \(shown(range.lowerBound)) and \(shown(range.upperBound))")
        }
        return number
    }

    /// A required number that must be at least `minimum`, as the schemas' `minimum`.
    func decode<Number: Decodable & Comparable>(_ type: Number.Type, forKey key: Key, atLeast minimum: Number) throws -> Number {
        let number = try decode(type, forKey: key)
        guard number >= minimum else { throw violation(key, "must be at least \(shown(minimum))") }
        return number
    }

    /// A number that must be at least `minimum`, or absent.
    package func decodeIfPresent<Number: Decodable & Comparable>(
        _ type: Number.Type, forKey key: Key, atLeast minimum: Number
    ) throws -> Number? {
        guard let number = try decodeIfPresent(type, forKey: key) else { return nil }
        guard number >= minimum else { throw violation(key, "must be at least \(shown(minimum))") }
        return number
    }

    /// A list without repeated items, as the schemas' `"uniqueItems": true`; absent means empty.
    func decodeUnique<Element: Decodable & Hashable>(_ type: [Element].Type, forKey key: Key, item: String) throws -> [Element] {
        let elements = try decodeIfPresent(type, forKey: key) ?? []
        try requireUnique(elements, forKey: key, by: { $0 }, item: item)
        return elements
    }

    /// Refuses a list at `key` in which two elements share `identity`, naming the later one (and its `field`).
    /// The schemas cannot compare fields of different items, so this rule is the decoder's alone and the schemas'
    /// descriptions document it.
    func requireUnique<Element, Identity: Hashable>(
        _ elements: [Element], forKey key: Key, by identity: (Element) -> Identity, item: String, field: String? = nil
    ) throws {
        var seen = Set<Identity>()
        for (index, element) in elements.enumerated() where !seen.insert(identity(element)).inserted {
            let elementPath: [any CodingKey] = codingPath + [key, ArrayIndexKey(index)] + (field.map { [FieldKey($0)] } ?? [])
            throw DecodingError.dataCorrupted(.init(codingPath: elementPath, debugDescription: "duplicate \(item)"))
        }
    }

    /// A bound as the schemas write it: `0`, not `0.0`.
    private func shown(_ bound: some Comparable) -> String {
        let text = "\(bound)"
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// An error at `key` saying what rule its value breaks.
    package func violation(_ key: Key, _ problem: String) -> DecodingError {
        DecodingError.dataCorrupted(.init(codingPath: codingPath + [key], debugDescription: problem))
    }
}

/// The string enumerations of the contract, decoded with an error that lists what is allowed.
protocol ContractEnum: RawRepresentable<String>, CaseIterable, Decodable {}

extension ContractEnum {
    /// Matches the raw value scalar by scalar, as JSON Schema's `enum` does (Swift's `==` would also accept
    /// canonically equivalent spellings).
    init(contractFrom decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let match = Self.allCases.first(where: { $0.rawValue.unicodeScalars.elementsEqual(text.unicodeScalars) }) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected one of " + Self.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self = match
    }
}
