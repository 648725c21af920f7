import Foundation

/// The pieces of JSON text as Foundation's `JSONEncoder` writes them with sorted keys and unescaped slashes: no
/// whitespace; in strings `"` and `\` escaped, control characters as `\b \f \n \r \t` or `\u00xx`, everything
/// else (slashes, DEL, non-ASCII) as it is; integers in decimal; floats as Swift's shortest round-trip text
/// without a trailing `.0`; object members sorted by the UTF-8 bytes of their keys.
package enum JSONText {
    /// Foundation's limit: at most this many arrays and objects inside each other.
    package static let maximumDepth = 511

    package static func append(_ literal: StaticString, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends an integer in decimal: the digits are counted first, then written in place, the last one first.
    // Exported specialized for `Int64`: another module cannot specialize a package function itself (its body is not
    // serialized, even when inlinable), and ran the generic one through `BinaryInteger`'s witnesses, about 3,300
    // instructions a call where the specialized one takes about 260.
    @_specialize(exported: true, where T == Int64)
    package static func appendInteger<T: BinaryInteger>(_ value: T, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var digits = 1
        var rest = value.magnitude
        while rest >= 10 {
            digits += 1
            rest /= 10
        }
        var index = bytes.count + digits
        for _ in 0..<digits { bytes.append(UInt8(ascii: "0")) }
        rest = value.magnitude
        repeat {
            index -= 1
            bytes[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        } while rest > 0
    }

    /// Appends a float, or throws for NaN and infinities, which JSON cannot carry.
    static func appendFloat<T: BinaryFloatingPoint & CustomStringConvertible>(
        _ value: T, to bytes: inout [UInt8], codingPath: @autoclosure () -> [any CodingKey]
    ) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: codingPath(), debugDescription: "Unable to encode \(T.self).\(value) directly in JSON."))
        }
        let text = value.description
        bytes.append(contentsOf: (text.hasSuffix(".0") ? text.dropLast(2) : text[...]).utf8)
    }

    package static func appendString(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendString(utf8: $0, to: &bytes) }
    }

    /// Appends the string whose UTF-8 bytes are `utf8`, quoted and escaped.
    static func appendString(utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var run = 0
        var index = 0
        while true {
            // Printable ASCII other than quotes and backslashes is copied as it is: the parser's scan finds the next
            // byte to look at eight bytes at a time, where a loop over every byte cost most of writing a string.
            index = StrictJSONParser.endOfPlainRun(in: utf8, from: index)
            guard index < utf8.count else { break }
            let byte = utf8[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
                appendEscape(byte, to: &bytes)
                run = index + 1
            }
            // Bytes beyond ASCII are written as they are.
            index += 1
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        bytes.append(UInt8(ascii: "\""))
    }

    private static func appendEscape(_ byte: UInt8, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            append("u00", to: &bytes)
            bytes.append(hex[Int(byte >> 4)])
            bytes.append(hex[Int(byte & 0xF)])
        }
    }

    /// Whether `first` sorts before `second` as Foundation sorts keys: by their UTF-8 bytes.
    static func keyPrecedes(_ first: String, _ second: String) -> Bool {
        var (first, second) = (first, second)
        return first.withUTF8 { left in second.withUTF8 { right in compareBytes(left, right) < 0 } }
    }

    /// Compares byte strings as `lexicographicallyPrecedes` orders them: negative, zero or positive.
    static func compareBytes(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(left.count, right.count)
        let order = common == 0 ? 0 : memcmp(left.baseAddress!, right.baseAddress!, common)
        return order != 0 ? Int(order) : left.count - right.count
    }

    static func isASCII(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        var combined: UInt8 = 0
        for byte in utf8 { combined |= byte }
        return combined < 0x80
    }

    /// Appends a parsed JSON value.
    package static func appendValue(_ value: JSONValue, to bytes: inout [UInt8], depth: Int) throws {
        switch value {
        case .null: append("null", to: &bytes)
        case .bool(let flag): flag ? append("true", to: &bytes) : append("false", to: &bytes)
        case .integer(let integer): appendInteger(integer, to: &bytes)
        case .number(let number): try appendFloat(number, to: &bytes, codingPath: [])
        case .string(let text): appendString(text, to: &bytes)
        case .array(let elements):
            try checkDepth(depth, of: value)
            bytes.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                try appendValue(element, to: &bytes, depth: depth + 1)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            try checkDepth(depth, of: value)
            bytes.append(UInt8(ascii: "{"))
            for (position, member) in members.sorted(by: { keyPrecedes($0.key, $1.key) }).enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                appendString(member.key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                try appendValue(member.value, to: &bytes, depth: depth + 1)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Appends the value at `node` of `tape` as ``appendValue(_:to:depth:)`` appends it, without building it.
    static func appendStable(_ tape: JSONTape, at node: Int, to bytes: inout [UInt8], depth: Int) throws {
        let current = tape.nodes[node]
        switch current.kind {
        case .null, .false, .true: bytes.append(contentsOf: tape.bytes[current.start..<current.end])
        case .integer: appendInteger(tape.integer(at: node), to: &bytes)
        case .number: try appendFloat(tape.double(at: node), to: &bytes, codingPath: [])
        case .string: appendStableString(tape, at: node, to: &bytes)
        case .array:
            try checkDepth(depth, of: tape.value(at: node))
            bytes.append(UInt8(ascii: "["))
            var element = node + 1
            while element < current.next {
                if element > node + 1 { bytes.append(UInt8(ascii: ",")) }
                try appendStable(tape, at: element, to: &bytes, depth: depth + 1)
                element = tape.nodes[element].next
            }
            bytes.append(UInt8(ascii: "]"))
        case .object:
            try checkDepth(depth, of: tape.value(at: node))
            var members: [(key: Int, value: Int)] = []
            members.reserveCapacity(current.count)
            tape.forEachMember(ofObjectAt: node) { members.append(($0, $1)) }
            if members.contains(where: { tape.nodes[$0.key].needsDecoding }) {
                let keys = Dictionary(uniqueKeysWithValues: members.map { ($0.key, tape.string(at: $0.key)) })
                members.sort { keyPrecedes(keys[$0.key]!, keys[$1.key]!) }
            } else {
                // Plain keys are their own UTF-8 bytes.
                tape.bytes.withUnsafeBufferPointer { text in
                    members.sort { first, second in
                        compareBytes(
                            UnsafeBufferPointer(rebasing: text[tape.nodes[first.key].textRange]),
                            UnsafeBufferPointer(rebasing: text[tape.nodes[second.key].textRange])) < 0
                    }
                }
            }
            bytes.append(UInt8(ascii: "{"))
            for (position, member) in members.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                appendStableString(tape, at: member.key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                try appendStable(tape, at: member.value, to: &bytes, depth: depth + 1)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// A string with neither escapes nor bytes beyond ASCII is written as it was read.
    private static func appendStableString(_ tape: JSONTape, at node: Int, to bytes: inout [UInt8]) {
        let string = tape.nodes[node]
        guard string.needsDecoding else { return bytes.append(contentsOf: tape.bytes[string.start..<string.end]) }
        appendString(tape.string(at: node), to: &bytes)
    }

    /// Throws when a container at `depth` (0 for the outermost) would nest deeper than Foundation writes.
    static func checkDepth(_ depth: Int, of value: @autoclosure () -> Any) throws {
        guard depth < maximumDepth else {
            throw EncodingError.invalidValue(
                value(), .init(codingPath: [], debugDescription: "Too many nested arrays or dictionaries."))
        }
    }
}
