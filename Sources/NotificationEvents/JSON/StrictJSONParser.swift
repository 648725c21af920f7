/// Parses bytes into a ``JSONTape`` by RFC 8259 and the contract's stricter rules, which the agreement harness
/// (Tests/NotificationEventsTests/validate.py) applies in the same way:
/// - UTF-8 only, no byte order mark, no unpaired UTF-16 surrogate in a `\u` escape;
/// - no `NaN`/`Infinity`, and every number finite as a 64-bit float;
/// - no two keys of one object equal as Swift strings (that is, after Unicode canonical equivalence);
/// - at most ``EventCodec/maximumNestingDepth`` arrays and objects inside each other.
///
/// The depth limit keeps recursion shallow, so a hostile document cannot exhaust the stack.
package struct StrictJSONParser {
    /// The document; valid while ``parse(_:maximumDepth:)`` runs. Every read is after an explicit check of
    /// `index < bytes.count`, so unchecked access is safe and saves a third of the parsing time.
    private let bytes: UnsafeBufferPointer<UInt8>
    private let maximumDepth: Int
    private var index = 0
    /// The values parsed so far. A container's node is completed (its `next` set) when its closing bracket is
    /// read, so the open ones show where the parser is: an error can name its path without the parser tracking it.
    private var nodes: [JSONTape.Node] = []

    /// From this many members on, an object's keys are compared through a set rather than one by one.
    private static let hashedKeyCount = 16

    package static func parse(
        _ bytes: [UInt8], maximumDepth: Int = EventCodec.maximumNestingDepth
    ) throws(EventDecodingError) -> JSONTape {
        let nodes = try bytes.withUnsafeBufferPointer { bytes throws(EventDecodingError) in
            if let offset = firstInvalidUTF8Offset(bytes) { throw .malformedJSON("invalid UTF-8 at byte \(offset)") }
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
                throw .malformedJSON("byte order mark at byte 0")
            }
            var parser = StrictJSONParser(bytes: bytes, maximumDepth: maximumDepth)
            // About one node per 9 bytes of compact JSON, plus the tape's null node.
            parser.nodes.reserveCapacity(bytes.count / 9 + 5)
            parser.skipWhitespace()
            try parser.parseValue(depth: 0)
            parser.skipWhitespace()
            guard parser.index == bytes.count else { throw parser.unexpected("data after the JSON value") }
            return parser.nodes
        }
        return JSONTape(bytes: bytes, nodes: nodes)
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// The offset of the first byte that does not start a well-formed UTF-8 sequence (Unicode's table 3-7), if any.
    private static func firstInvalidUTF8Offset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = bytes.count
        var offset = 0
        while offset < count {
            // Eight ASCII bytes at a time: documents are mostly ASCII.
            if offset + 8 <= count,
                UnsafeRawPointer(bytes.baseAddress! + offset).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                offset += 8
                continue
            }
            if bytes[offset] < 0x80 {
                offset += 1
                continue
            }
            guard let length = multiByteSequenceLength(bytes, at: offset) else { return offset }
            offset += length
        }
        return nil
    }

    /// The length of the well-formed multi-byte UTF-8 sequence at `offset` (Unicode's table 3-7), or nil when the
    /// bytes there are not one.
    static func multiByteSequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int? {
        let length: Int
        let second: ClosedRange<UInt8>
        switch bytes[offset] {
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: return nil
        }
        guard offset + length <= bytes.count, second.contains(bytes[offset + 1]) else { return nil }
        for continuation in offset + 2..<offset + length where !(0x80...0xBF).contains(bytes[continuation]) {
            return nil
        }
        return length
    }

    private mutating func parseValue(depth: Int) throws(EventDecodingError) {
        guard index < bytes.count else { throw .malformedJSON("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): try parseString()
        case UInt8(ascii: "t"): try parseLiteral("true", .true)
        case UInt8(ascii: "f"): try parseLiteral("false", .false)
        case UInt8(ascii: "n"): try parseLiteral("null", .null)
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            throw .malformedJSON("NaN and Infinity are not JSON numbers (byte \(index))")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try parseNumber()
        default: throw unexpected("character")
        }
    }

    private mutating func parseObject(depth: Int) throws(EventDecodingError) {
        try checkDepth(depth)
        let object = append(.object)
        index += 1
        skipWhitespace()
        if consume("}") { return close(object, count: 0) }
        var count = 0
        var hashedKeys: Set<String>?
        repeat {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw unexpected("character, expected a key") }
            let key = nodes.count
            try parseString()
            skipWhitespace()
            guard consume(":") else { throw unexpected("character, expected ':'") }
            skipWhitespace()
            guard !isDuplicate(key, inObjectAt: object, count: count, hashedKeys: &hashedKeys) else {
                throw .invalidField(path: renderedPath(), problem: "duplicate key")
            }
            try parseValue(depth: depth)
            count += 1
            skipWhitespace()
        } while consume(",")
        guard consume("}") else { throw unexpected("character, expected ',' or '}'") }
        close(object, count: count)
    }

    /// Whether `key` equals one of the `count` keys the object at `object` has so far.
    private func isDuplicate(_ key: Int, inObjectAt object: Int, count: Int, hashedKeys: inout Set<String>?) -> Bool {
        if hashedKeys == nil, count < Self.hashedKeyCount {
            let new = nodes[key]
            var earlier = object + 1
            while earlier < key {
                let node = nodes[earlier]
                // Cheap first: keys of different lengths can only be equal when one needs decoding.
                if node.end - node.start == new.end - new.start || node.needsDecoding || new.needsDecoding,
                    JSONTape.key(node, equals: new, in: bytes)
                {
                    return true
                }
                earlier = nodes[earlier + 1].next
            }
            return false
        }
        if hashedKeys == nil {
            var earlier = Set<String>()
            var member = object + 1
            while member < key {
                earlier.insert(JSONTape.string(nodes[member], in: bytes))
                member = nodes[member + 1].next
            }
            hashedKeys = earlier
        }
        return !hashedKeys!.insert(JSONTape.string(nodes[key], in: bytes)).inserted
    }

    private mutating func parseArray(depth: Int) throws(EventDecodingError) {
        try checkDepth(depth)
        let array = append(.array)
        index += 1
        skipWhitespace()
        if consume("]") { return close(array, count: 0) }
        var count = 0
        repeat {
            skipWhitespace()
            try parseValue(depth: depth)
            count += 1
            skipWhitespace()
        } while consume(",")
        guard consume("]") else { throw unexpected("character, expected ',' or ']'") }
        close(array, count: count)
    }

    private func checkDepth(_ depth: Int) throws(EventDecodingError) {
        guard depth <= maximumDepth else {
            throw .malformedJSON("nested deeper than \(maximumDepth) levels (byte \(index))")
        }
    }

    private mutating func parseString() throws(EventDecodingError) {
        let start = index
        index += 1
        var needsDecoding = false
        while true {
            index = Self.endOfPlainRun(in: bytes, from: index)
            guard index < bytes.count else { throw .malformedJSON("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                nodes.append(
                    JSONTape.Node(kind: .string, needsDecoding: needsDecoding, next: nodes.count + 1, start: start, end: index))
                return
            } else if byte == UInt8(ascii: "\\") {
                needsDecoding = true
                index = try Self.escape(in: bytes, at: index).next
            } else if byte < 0x20 {
                throw .malformedJSON("unescaped control character in a string (byte \(index))")
            } else {
                needsDecoding = true
                index += 1
            }
        }
    }

    private mutating func parseNumber() throws(EventDecodingError) {
        let start = index
        let negative = consume("-")
        if index < bytes.count, bytes[index] == UInt8(ascii: "I") {
            throw .malformedJSON("NaN and Infinity are not JSON numbers (byte \(start))")
        }
        var magnitude: UInt64 = 0
        var fitsInteger = true
        if !consume("0") {
            let digits = index
            while index < bytes.count, let digit = Self.digit(bytes[index]) {
                let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, carry) = times10.addingReportingOverflow(UInt64(digit))
                fitsInteger = fitsInteger && !overflow && !carry
                magnitude = sum
                index += 1
            }
            guard index > digits else { throw unexpected("character in a number") }
        }
        if consume(".") {
            fitsInteger = false
            guard skipDigits() else { throw unexpected("character in a number") }
        }
        if consume("e") || consume("E") {
            fitsInteger = false
            if !consume("+") { _ = consume("-") }
            guard skipDigits() else { throw unexpected("character in a number") }
        }
        if fitsInteger, magnitude <= (negative ? Int64.min.magnitude : UInt64(Int64.max)) {
            nodes.append(JSONTape.Node(kind: .integer, next: nodes.count + 1, start: start, end: index))
            return
        }
        guard let number = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)),
            number.isFinite
        else {
            throw .malformedJSON("number out of range (byte \(start))")
        }
        nodes.append(JSONTape.Node(kind: .number, next: nodes.count + 1, start: start, end: index))
    }

    private static func digit(_ byte: UInt8) -> UInt8? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? byte - UInt8(ascii: "0") : nil
    }

    private mutating func parseLiteral(_ literal: StaticString, _ kind: JSONTape.Kind) throws(EventDecodingError) {
        let text = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        guard bytes[index...].starts(with: text) else { throw unexpected("character") }
        nodes.append(JSONTape.Node(kind: kind, next: nodes.count + 1, start: index, end: index + text.count))
        index += text.count
    }

    /// Appends a container's node; ``close(_:count:)`` completes it once its contents are parsed.
    private mutating func append(_ kind: JSONTape.Kind) -> Int {
        nodes.append(JSONTape.Node(kind: kind, next: 0, start: index, end: 0))
        return nodes.count - 1
    }

    /// Completes a container whose closing bracket the parser just read.
    private mutating func close(_ container: Int, count: Int) {
        nodes[container].count = count
        nodes[container].next = nodes.count
        nodes[container].end = index
    }

    private mutating func skipDigits() -> Bool {
        let start = index
        while index < bytes.count, Self.digit(bytes[index]) != nil { index += 1 }
        return index > start
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func consume(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    /// The path of the key just parsed (the last node), from the open containers: in each, the member or element
    /// being parsed is the first one not completed.
    private func renderedPath() -> String {
        var path: [FieldPath.Component] = []
        var container = 0
        while true {
            if nodes[container].kind == .object {
                var key = container + 1
                while key + 1 < nodes.count, nodes[key + 1].next != 0 { key = nodes[key + 1].next }
                path.append(.key(JSONTape.string(nodes[key], in: bytes)))
                if key + 1 == nodes.count { return FieldPath.render(path) }
                container = key + 1
            } else {
                var element = container + 1
                var position = 0
                while nodes[element].next != 0 {
                    element = nodes[element].next
                    position += 1
                }
                path.append(.index(position))
                container = element
            }
        }
    }

    private func unexpected(_ what: String) -> EventDecodingError {
        index < bytes.count ? .malformedJSON("unexpected \(what) at byte \(index)") : .malformedJSON("unexpected end of input")
    }
}
