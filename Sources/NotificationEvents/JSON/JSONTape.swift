import Foundation

/// A JSON document that ``StrictJSONParser`` accepted, as a flat list of nodes in document order (a "tape"):
/// a container's node is followed by its contents, an object's as key, value, key, value, …
///
/// Decoding walks the tape and makes strings, numbers and dictionaries only for the values it reads, so a
/// document costs one pass over its bytes and no allocation per key. A class, so decoders pass it by reference.
package final class JSONTape: Sendable {
    package enum Kind: UInt8 {
        case null, `false`, `true`
        /// A number without fraction or exponent that fits in `Int64`.
        case integer
        /// Any other number; finite as a `Double`.
        case number
        case string, array, object
    }

    package struct Node {
        package var kind: Kind
        /// For strings: whether the text has escapes or bytes outside ASCII, so it must be decoded to compare.
        package var needsDecoding = false
        /// For containers: how many elements or members.
        var count = 0
        /// The index of the node after this value and all it contains.
        package var next: Int
        /// Where the value's text starts in the document (a string's at its opening quote) and ends.
        var start: Int
        var end: Int

        /// A string's text between its quotes.
        package var textRange: Range<Int> { start + 1..<end - 1 }
    }

    /// The document's bytes, which nodes point into.
    package let bytes: [UInt8]
    /// The document's values; the document itself is node 0.
    package let nodes: [Node]
    /// A `null` outside the document, for reading a value that is absent as null.
    let nullNode: Int

    /// The tape of a document whose values are `nodes`.
    init(bytes: [UInt8], nodes: consuming [Node]) {
        self.bytes = bytes
        nullNode = nodes.count
        // Appended in place, so no parse copies its whole node array for one more node.
        nodes.append(Node(kind: .null, next: nodes.count + 1, start: 0, end: 0))
        self.nodes = nodes
    }

    /// The tape of a value that is already parsed, such as a message's headers.
    convenience init(_ value: JSONValue) {
        var builder = Builder()
        builder.append(value)
        self.init(bytes: builder.bytes, nodes: builder.nodes)
    }

    /// Lays a ``JSONValue`` out as a tape: scalars as JSON text (strings with only backslashes and quotes
    /// escaped, which is all ``StrictJSONParser/decodeString(_:_:)`` needs to give them back unchanged; numbers
    /// as Swift writes them, NaN and infinities included, which `Double(_:)` reads back). Containers have no text.
    private struct Builder {
        var bytes: [UInt8] = []
        var nodes: [Node] = []

        mutating func append(_ value: JSONValue) {
            switch value {
            case .null: appendScalar(.null, "null")
            case .bool(let flag): flag ? appendScalar(.true, "true") : appendScalar(.false, "false")
            case .integer(let integer): appendScalar(.integer, String(integer))
            case .number(let number): appendScalar(.number, number.description)
            case .string(let text): appendString(text)
            case .array(let elements):
                let array = nodes.count
                nodes.append(Node(kind: .array, next: 0, start: 0, end: 0))
                for element in elements { append(element) }
                close(array, count: elements.count)
            case .object(let members):
                let object = nodes.count
                nodes.append(Node(kind: .object, next: 0, start: 0, end: 0))
                for (key, value) in members {
                    appendString(key)
                    append(value)
                }
                close(object, count: members.count)
            }
        }

        private mutating func appendScalar(_ kind: Kind, _ text: String) {
            let start = bytes.count
            bytes.append(contentsOf: text.utf8)
            nodes.append(Node(kind: kind, next: nodes.count + 1, start: start, end: bytes.count))
        }

        private mutating func appendString(_ text: String) {
            let start = bytes.count
            var plain = true
            bytes.append(UInt8(ascii: "\""))
            for byte in text.utf8 {
                if byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\"") {
                    bytes.append(UInt8(ascii: "\\"))
                    plain = false
                }
                plain = plain && byte < 0x80
                bytes.append(byte)
            }
            bytes.append(UInt8(ascii: "\""))
            nodes.append(
                Node(kind: .string, needsDecoding: !plain, next: nodes.count + 1, start: start, end: bytes.count))
        }

        private mutating func close(_ container: Int, count: Int) {
            nodes[container].count = count
            nodes[container].next = nodes.count
        }
    }

    /// The string at `index`, decoded.
    package func string(at index: Int) -> String {
        bytes.withUnsafeBufferPointer { Self.string(nodes[index], in: $0) }
    }

    /// The text of the string `node` of a document's `bytes`, decoded.
    static func string(_ node: Node, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard node.needsDecoding else {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[node.textRange]), as: UTF8.self)
        }
        return StrictJSONParser.decodeString(bytes, node.textRange)
    }

    /// Whether the key at `index` is plain (ASCII without escapes, so its bytes are its text) and spelled `name`:
    /// compared byte by byte, without making a `String` of it.
    package func plainKey(at index: Int, is name: StaticString) -> Bool {
        guard !nodes[index].needsDecoding else { return false }
        return bytes.withUnsafeBufferPointer { Self.plainKey(UnsafeBufferPointer(rebasing: $0[nodes[index].textRange]), is: name) }
    }

    /// Whether a plain key's text is `name`, compared byte by byte.
    static func plainKey(_ key: UnsafeBufferPointer<UInt8>, is name: StaticString) -> Bool {
        key.count == name.utf8CodeUnitCount && (key.isEmpty || memcmp(key.baseAddress!, name.utf8Start, key.count) == 0)
    }

    /// Whether the strings `first` and `second` of a document's `bytes` are equal as Swift compares strings
    /// (Unicode canonical equivalence).
    static func key(_ first: Node, equals second: Node, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard first.needsDecoding || second.needsDecoding else {
            return first.end - first.start == second.end - second.start
                && JSONText.compareBytes(
                    UnsafeBufferPointer(rebasing: bytes[first.textRange]),
                    UnsafeBufferPointer(rebasing: bytes[second.textRange])) == 0
        }
        return string(first, in: bytes) == string(second, in: bytes)
    }

    /// The value of the member named `key` in the object at `index`, matched as Swift compares strings (Unicode
    /// canonical equivalence), or nil when there is none.
    func member(named key: String, inObjectAt index: Int) -> Int? {
        var contiguousKey = key
        return contiguousKey.withUTF8 { wanted in
            bytes.withUnsafeBufferPointer { bytes in
                nodes.withUnsafeBufferPointer { nodes in
                    let keyIsASCII = JSONText.isASCII(wanted)
                    let end = nodes[index].next
                    var member = index + 1
                    while member < end {
                        let node = nodes[member]
                        if !node.needsDecoding {
                            let text = UnsafeBufferPointer(rebasing: bytes[node.textRange])
                            if text.count == wanted.count, JSONText.compareBytes(text, wanted) == 0 { return member + 1 }
                            // Different plain-ASCII bytes are different strings; otherwise only decoding can tell.
                            if !keyIsASCII, Self.string(node, in: bytes) == key { return member + 1 }
                        } else if Self.string(node, in: bytes) == key {
                            return member + 1
                        }
                        member = nodes[member + 1].next
                    }
                    return nil
                }
            }
        }
    }

    /// Calls `body` with the key and value nodes of each member of the object at `index`, in document order.
    func forEachMember(ofObjectAt index: Int, _ body: (_ key: Int, _ value: Int) throws -> Void) rethrows {
        var key = index + 1
        while key < nodes[index].next {
            try body(key, key + 1)
            key = nodes[key + 1].next
        }
    }

    /// The integer at `index`, a node of kind ``Kind/integer``.
    package func integer(at index: Int) -> Int64 {
        let node = nodes[index]
        return bytes.withUnsafeBufferPointer { bytes in
            let negative = bytes[node.start] == UInt8(ascii: "-")
            var magnitude: Int64 = 0
            // Accumulating the negative value reaches Int64.min; the parser checked that the value fits.
            for byte in bytes[(negative ? node.start + 1 : node.start)..<node.end] {
                magnitude = magnitude &* 10 &- Int64(byte &- UInt8(ascii: "0"))
            }
            return negative ? magnitude : -magnitude
        }
    }

    /// The number at `index`, a node of kind ``Kind/integer`` or ``Kind/number``.
    func double(at index: Int) -> Double {
        let node = nodes[index]
        if node.kind == .integer { return Double(integer(at: index)) }
        return bytes.withUnsafeBufferPointer { bytes in
            Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[node.start..<node.end]), as: UTF8.self))!
        }
    }

    /// The bytes of the value at `index`, as the document has them.
    func text(at index: Int) -> [UInt8] {
        bytes.withUnsafeBufferPointer { Array(UnsafeBufferPointer(rebasing: $0[nodes[index].start..<nodes[index].end])) }
    }

    /// The text of the number at `index`, as the document has it.
    func numberText(at index: Int) -> String {
        String(decoding: bytes[nodes[index].start..<nodes[index].end], as: UTF8.self)
    }

    /// The value at `index` as a ``JSONValue``, with everything it contains.
    func value(at index: Int) -> JSONValue {
        switch nodes[index].kind {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .integer: return .integer(integer(at: index))
        case .number: return .number(double(at: index))
        case .string: return .string(string(at: index))
        case .array:
            var elements: [JSONValue] = []
            elements.reserveCapacity(nodes[index].count)
            var child = index + 1
            while child < nodes[index].next {
                elements.append(value(at: child))
                child = nodes[child].next
            }
            return .array(elements)
        case .object:
            return .object(members(at: index))
        }
    }

    /// The members of the object at `index`, each value as a ``JSONValue``.
    package func members(at index: Int) -> [String: JSONValue] {
        var members: [String: JSONValue] = Dictionary(minimumCapacity: nodes[index].count)
        forEachMember(ofObjectAt: index) { key, value in members[string(at: key)] = self.value(at: value) }
        return members
    }

    /// The JSON kind of the value at `index`, as the contract's error messages name it.
    func kindName(at index: Int) -> String {
        switch nodes[index].kind {
        case .null: "null"
        case .false, .true: "boolean"
        case .integer, .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
