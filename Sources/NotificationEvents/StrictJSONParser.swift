/// Parses bytes into a ``JSONValue`` by RFC 8259 and the contract's stricter rules, which the agreement harness
/// (Tests/NotificationEventsTests/validate.py) applies in the same way:
/// - UTF-8 only, no byte order mark, no unpaired UTF-16 surrogate in a `\u` escape;
/// - no `NaN`/`Infinity`, and every number finite as a 64-bit float;
/// - no two keys of one object equal as Swift strings (that is, after Unicode canonical equivalence);
/// - at most ``EventCodec/maximumNestingDepth`` arrays and objects inside each other.
///
/// The depth limit keeps recursion shallow, so a hostile document cannot exhaust the stack.
struct StrictJSONParser {
    private let bytes: [UInt8]
    private var index = 0
    /// Where the parser is, for naming a duplicate key by its path.
    private var path: [FieldPath.Component] = []

    static func parse(_ bytes: [UInt8]) throws(EventDecodingError) -> JSONValue {
        if let offset = firstInvalidUTF8Offset(bytes) { throw .malformedJSON("invalid UTF-8 at byte \(offset)") }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { throw .malformedJSON("byte order mark at byte 0") }
        var parser = StrictJSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.unexpected("data after the JSON value") }
        return value
    }

    private static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(EventDecodingError) -> JSONValue {
        guard index < bytes.count else { throw .malformedJSON("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            throw .malformedJSON("NaN and Infinity are not JSON numbers (byte \(index))")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw unexpected("character")
        }
    }

    private mutating func parseObject(depth: Int) throws(EventDecodingError) -> JSONValue {
        try checkDepth(depth)
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if consume("}") { return .object(members) }
        repeat {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw unexpected("character, expected a key") }
            let key = try parseString()
            skipWhitespace()
            guard consume(":") else { throw unexpected("character, expected ':'") }
            skipWhitespace()
            path.append(.key(key))
            guard members[key] == nil else { throw .invalidField(path: FieldPath.render(path), problem: "duplicate key") }
            members[key] = try parseValue(depth: depth)
            path.removeLast()
            skipWhitespace()
        } while consume(",")
        guard consume("}") else { throw unexpected("character, expected ',' or '}'") }
        return .object(members)
    }

    private mutating func parseArray(depth: Int) throws(EventDecodingError) -> JSONValue {
        try checkDepth(depth)
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if consume("]") { return .array(elements) }
        repeat {
            skipWhitespace()
            path.append(.index(elements.count))
            elements.append(try parseValue(depth: depth))
            path.removeLast()
            skipWhitespace()
        } while consume(",")
        guard consume("]") else { throw unexpected("character, expected ',' or ']'") }
        return .array(elements)
    }

    private func checkDepth(_ depth: Int) throws(EventDecodingError) {
        guard depth <= EventCodec.maximumNestingDepth else {
            throw .malformedJSON("nested deeper than \(EventCodec.maximumNestingDepth) levels (byte \(index))")
        }
    }

    private mutating func parseString() throws(EventDecodingError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flushRun(upTo end: Int) {
            scalars.append(contentsOf: String(decoding: bytes[runStart..<end], as: UTF8.self).unicodeScalars)
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                flushRun(upTo: index)
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                flushRun(upTo: index)
                scalars.append(try parseEscape())
                runStart = index
            case 0x00..<0x20:
                throw .malformedJSON("unescaped control character in a string (byte \(index))")
            default:
                index += 1
            }
        }
        throw .malformedJSON("unterminated string")
    }

    private mutating func parseEscape() throws(EventDecodingError) -> Unicode.Scalar {
        let start = index
        index += 1
        guard index < bytes.count else { throw .malformedJSON("unterminated string") }
        let escaped = bytes[index]
        index += 1
        switch escaped {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try parseHexUnit(escapeStart: start)
            if UTF16.isLeadSurrogate(unit), bytes[index...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) {
                index += 2
                let trail = try parseHexUnit(escapeStart: start)
                if UTF16.isTrailSurrogate(trail) {
                    return Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(trail) - 0xDC00))!
                }
            }
            guard let scalar = Unicode.Scalar(unit) else {
                throw .malformedJSON("unpaired UTF-16 surrogate in a \\u escape (byte \(start))")
            }
            return scalar
        default:
            throw .malformedJSON("invalid escape in a string (byte \(start))")
        }
    }

    private mutating func parseHexUnit(escapeStart: Int) throws(EventDecodingError) -> UInt16 {
        guard index + 4 <= bytes.count,
              let unit = UInt16(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16),
              bytes[index..<index + 4].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") })
        else { throw .malformedJSON("invalid \\u escape in a string (byte \(escapeStart))") }
        index += 4
        return unit
    }

    private mutating func parseNumber() throws(EventDecodingError) -> JSONValue {
        let start = index
        _ = consume("-")
        if index < bytes.count, bytes[index] == UInt8(ascii: "I") {
            throw .malformedJSON("NaN and Infinity are not JSON numbers (byte \(start))")
        }
        if !consume("0") {
            guard skipDigits() else { throw unexpected("character in a number") }
        }
        var isInteger = true
        if consume(".") {
            isInteger = false
            guard skipDigits() else { throw unexpected("character in a number") }
        }
        if consume("e") || consume("E") {
            isInteger = false
            if !consume("+") { _ = consume("-") }
            guard skipDigits() else { throw unexpected("character in a number") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let number = Double(text), number.isFinite else {
            throw .malformedJSON("number out of range (byte \(start))")
        }
        return .number(number)
    }

    private mutating func parseLiteral(_ literal: String, _ value: JSONValue) throws(EventDecodingError) -> JSONValue {
        guard bytes[index...].starts(with: literal.utf8) else { throw unexpected("character") }
        index += literal.utf8.count
        return value
    }

    private mutating func skipDigits() -> Bool {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index > start
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func consume(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    private func unexpected(_ what: String) -> EventDecodingError {
        index < bytes.count ? .malformedJSON("unexpected \(what) at byte \(index)") : .malformedJSON("unexpected end of input")
    }
}
