import Foundation

/// Encodes values to the bytes that Foundation's `JSONEncoder` writes with ``EventCodec/encoder``'s settings
/// (sorted keys, unescaped slashes, RFC 3339 dates; `Data` as base64, `URL` as its absolute string, `Decimal` as
/// a number, a value that encodes nothing as `{}`, a key encoded twice with its last value), at a fraction of
/// its cost: values are written as text at once, and ``JSONValue`` without going through `Encodable`.
///
/// One encoder holds one value. A container's members are written in the order they come into ``scratch``;
/// since the last key of a keyed container is known only once its value's `encode(to:)` returns, the encoder
/// that asked for the value then takes it sorted, with ``finish(into:)``.
final class ContractEncoder: Encoder {
    private enum Kind {
        case nothing, single, object, array
    }

    /// A member (or element) of the container: its key's UTF-8 bytes in ``scratch`` (empty for an element), and
    /// its value's text there, or the encoder of a nested container or `superEncoder`, which is read when this
    /// one finishes, since the caller may still be encoding into it until then.
    private struct Member {
        var key: Range<Int>
        var value: Range<Int>
        /// The index in ``deferred``, or -1.
        var deferredIndex: Int
    }

    private let parent: ContractEncoder?
    private let key: (any CodingKey)?
    /// How many containers enclose this encoder's value, for Foundation's nesting limit.
    private let depth: Int
    private var kind = Kind.nothing
    // Only this encoder's own methods touch these, never while another of them is running, so the dynamic
    // exclusivity checks of class properties (a tenth of the cost of encoding an event) are left out.
    /// The keys and values encoded here, in the order they came.
    @exclusivity(unchecked) private var scratch: [UInt8] = []
    @exclusivity(unchecked) private var members: [Member] = []
    @exclusivity(unchecked) private var deferred: [ContractEncoder] = []
    private var keysAreASCII = true
    private var single: Range<Int> = 0..<0

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var encoder: ContractEncoder? = self
        while let current = encoder {
            if let key = current.key { path.append(key) }
            encoder = current.parent
        }
        return path.reversed()
    }

    private init(parent: ContractEncoder?, key: (any CodingKey)?, depth: Int) {
        self.parent = parent
        self.key = key
        self.depth = depth
    }

    /// The JSON bytes of `value`.
    static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let root = ContractEncoder(parent: nil, key: nil, depth: 0)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(512)
        guard try root.append(value, key: nil, to: &bytes, depth: 0) else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        return bytes
    }

    /// Appends the text of `value`, whose place is `key` in this encoder's value and which is enclosed in `depth`
    /// containers; false when its `encode(to:)` encoded nothing.
    private func append<T: Encodable>(_ value: T, key: (any CodingKey)?, to bytes: inout [UInt8], depth: Int) throws -> Bool {
        // The types Foundation's encoder treats specially, recognised by metatype: a cast would cost more.
        if T.self == String.self {
            JSONText.appendString(value as! String, to: &bytes)
        } else if T.self == JSONValue.self {
            try JSONText.appendValue(value as! JSONValue, to: &bytes, depth: depth)
        } else if T.self == RawJSON.self {
            try (value as! RawJSON).appendStable(to: &bytes, depth: depth)
        } else if T.self == Date.self {
            bytes.append(UInt8(ascii: "\""))
            InternetDate.append(value as! Date, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        } else if T.self == Data.self {
            JSONText.appendString((value as! Data).base64EncodedString(), to: &bytes)
        } else if T.self == URL.self {
            JSONText.appendString((value as! URL).absoluteString, to: &bytes)
        } else if T.self == Decimal.self {
            bytes.append(contentsOf: (value as! Decimal).description.utf8)
        } else {
            let encoder = ContractEncoder(parent: self, key: key, depth: depth)
            try value.encode(to: encoder)
            guard encoder.kind != .nothing else { return false }
            try encoder.finish(into: &bytes)
        }
        return true
    }

    /// Appends the value this encoder holds; `{}` when nothing was encoded into it.
    private func finish(into bytes: inout [UInt8]) throws {
        switch kind {
        case .nothing: JSONText.append("{}", to: &bytes)
        case .single: bytes.append(contentsOf: scratch[single])
        case .object:
            try JSONText.checkDepth(depth, of: self)
            bytes.append(UInt8(ascii: "{"))
            for (position, member) in sortedMembers().enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                scratch.withUnsafeBufferPointer { scratch in
                    JSONText.appendString(utf8: UnsafeBufferPointer(rebasing: scratch[members[member].key]), to: &bytes)
                }
                bytes.append(UInt8(ascii: ":"))
                try appendValue(of: members[member], to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        case .array:
            try JSONText.checkDepth(depth, of: self)
            bytes.append(UInt8(ascii: "["))
            for (position, member) in members.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                try appendValue(of: member, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        }
    }

    private func appendValue(of member: Member, to bytes: inout [UInt8]) throws {
        if member.deferredIndex >= 0 {
            try deferred[member.deferredIndex].finish(into: &bytes)
        } else {
            bytes.append(contentsOf: scratch[member.value])
        }
    }

    /// The positions of the members in the order Foundation writes them: by the UTF-8 bytes of their keys. A key
    /// set more than once (or in canonically equivalent spellings) appears once, in its first spelling and
    /// place, with its last value, as in the dictionary Foundation collects members in.
    private func sortedMembers() -> [Int] {
        // Nothing to sort or merge, as in a handler's state of one member: sorting cost about 1,000 instructions.
        if members.count < 2 { return Array(members.indices) }
        guard keysAreASCII else { return sortedMembersByString() }
        return scratch.withUnsafeBufferPointer { scratch in
            func order(_ first: Int, _ second: Int) -> Int {
                JSONText.compareBytes(
                    UnsafeBufferPointer(rebasing: scratch[members[first].key]),
                    UnsafeBufferPointer(rebasing: scratch[members[second].key]))
            }
            // ASCII keys are equal only when their bytes are, so sorting brings a repeated key's entries together,
            // earliest first.
            let sorted = members.indices.sorted { first, second in
                let comparison = order(first, second)
                return comparison == 0 ? first < second : comparison < 0
            }
            var positions: [Int] = []
            positions.reserveCapacity(sorted.count)
            for member in sorted {
                if let last = positions.last, order(last, member) == 0 {
                    positions[positions.count - 1] = member
                } else {
                    positions.append(member)
                }
            }
            return positions
        }
    }

    /// ``sortedMembers()`` for keys beyond ASCII, which only Swift's string comparison finds equal or not.
    private func sortedMembersByString() -> [Int] {
        let keys = members.map { String(decoding: scratch[$0.key], as: UTF8.self) }
        var positions: [Int] = []
        var first: [String: Int] = [:]
        for (member, key) in keys.enumerated() {
            if let earlier = first[key] {
                let spelling = members[positions[earlier]].key
                members[positions[earlier]] = members[member]
                members[positions[earlier]].key = spelling
            } else {
                first[key] = positions.count
                positions.append(member)
            }
        }
        return positions.sorted { JSONText.keyPrecedes(keys[$0], keys[$1]) }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if kind != .object { reserve() }
        kind = .object
        return KeyedEncodingContainer(KeyedContainer(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if kind != .array { reserve() }
        kind = .array
        return UnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: self)
    }

    /// Room for a typical container's members, so they need not grow the storage one doubling at a time.
    private func reserve() {
        scratch.reserveCapacity(256)
        members.reserveCapacity(8)
    }

    // MARK: Filling containers

    var elementCount: Int { members.count }

    /// Appends a member (`key` non-nil) or element whose text `write` appends.
    func add(_ key: String?, _ write: (inout [UInt8]) throws -> Void) rethrows {
        let keyRange = appendKey(key)
        let start = scratch.count
        try write(&scratch)
        members.append(Member(key: keyRange, value: start..<scratch.count, deferredIndex: -1))
    }

    /// Appends a member or element holding `value`; `{}` when its `encode(to:)` encoded nothing.
    func add<T: Encodable>(_ key: String?, _ value: T, codingKey: any CodingKey) throws {
        let keyRange = appendKey(key)
        let start = scratch.count
        if try !append(value, key: codingKey, to: &scratch, depth: depth + 1) {
            JSONText.append("{}", to: &scratch)
        }
        members.append(Member(key: keyRange, value: start..<scratch.count, deferredIndex: -1))
    }

    /// Appends a member or element that a nested container or `superEncoder` fills.
    func addDeferred(_ key: String?, codingKey: any CodingKey) -> ContractEncoder {
        let nested = ContractEncoder(parent: self, key: codingKey, depth: depth + 1)
        members.append(Member(key: appendKey(key), value: 0..<0, deferredIndex: deferred.count))
        deferred.append(nested)
        return nested
    }

    private func appendKey(_ key: String?) -> Range<Int> {
        guard var key else { return 0..<0 }
        let start = scratch.count
        key.withUTF8 { utf8 in
            scratch.append(contentsOf: utf8)
            if keysAreASCII { keysAreASCII = JSONText.isASCII(utf8) }
        }
        return start..<scratch.count
    }

    /// Sets this encoder's value to the text `write` appends.
    func setSingle(_ write: (inout [UInt8]) throws -> Void) rethrows {
        scratch.removeAll(keepingCapacity: true)
        try write(&scratch)
        single = 0..<scratch.count
        kind = .single
    }

    /// Sets this encoder's value to `value`, which stands in for it at the same place and depth.
    func setSingle<T: Encodable>(_ value: T) throws {
        scratch.removeAll(keepingCapacity: true)
        if try !append(value, key: nil, to: &scratch, depth: depth) {
            JSONText.append("{}", to: &scratch)
        }
        single = 0..<scratch.count
        kind = .single
    }

    func float<T: BinaryFloatingPoint & CustomStringConvertible>(
        _ value: T, at codingKey: (any CodingKey)?
    ) -> (inout [UInt8]) throws -> Void {
        { bytes in try JSONText.appendFloat(value, to: &bytes, codingPath: self.codingPath + (codingKey.map { [$0] } ?? [])) }
    }
}
