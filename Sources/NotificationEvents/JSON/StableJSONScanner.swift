/// Recognises a JSON document that is already in the stable form ``JSONText/appendStable(_:at:to:depth:)`` writes
/// (no spacing, members in key order, strings escaped as ``JSONText/appendString(_:to:)`` escapes them), in one pass
/// and without building a tape: such a document can be kept and written as it is.
///
/// The contract encoder writes in this form, so replay's outputs pass: their bodies need no parse to be kept as
/// JSON and no member sorting to be written. It accepts only a subset of what ``StrictJSONParser`` accepts (every
/// byte is checked by the same rules, at most ``EventCodec/maximumNestingDepth`` levels) and says no to anything it
/// does not fully check, which then goes the long way: a top-level scalar, a float or an integer of 19 digits or
/// more (their text may differ from the stable one), a key with escapes or bytes beyond ASCII.
///
/// Kept while it pays: Benchmarks/thresholds.json's replay row "every-update memory" (147,100 instructions an event) fails without it.
struct StableJSONScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    /// Whether `bytes` are an object or an array in the stable form.
    static func isStable(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return false }
        var scanner = StableJSONScanner(bytes: bytes)
        return scanner.value(depth: 0) && scanner.index == bytes.count
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        index += 1
        return true
    }

    private mutating func value(depth: Int) -> Bool {
        guard let byte = current else { return false }
        switch byte {
        case UInt8(ascii: "{"): return object(depth: depth + 1)
        case UInt8(ascii: "["): return array(depth: depth + 1)
        case UInt8(ascii: "\""): return string()
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return integer()
        default: return false
        }
    }

    private mutating func object(depth: Int) -> Bool {
        guard depth <= EventCodec.maximumNestingDepth else { return false }
        index += 1
        if consume(UInt8(ascii: "}")) { return true }
        var previousKey: Range<Int>?
        repeat {
            guard let key = plainKey() else { return false }
            // Strictly ascending keys are in the writer's order and distinct.
            if let previousKey {
                let order = JSONText.compareBytes(
                    UnsafeBufferPointer(rebasing: bytes[previousKey]), UnsafeBufferPointer(rebasing: bytes[key]))
                guard order < 0 else { return false }
            }
            previousKey = key
            guard consume(UInt8(ascii: ":")), value(depth: depth) else { return false }
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "}"))
    }

    private mutating func array(depth: Int) -> Bool {
        guard depth <= EventCodec.maximumNestingDepth else { return false }
        index += 1
        if consume(UInt8(ascii: "]")) { return true }
        repeat {
            guard value(depth: depth) else { return false }
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "]"))
    }

    /// A key of printable ASCII without escapes; its bytes between the quotes.
    private mutating func plainKey() -> Range<Int>? {
        guard consume(UInt8(ascii: "\"")) else { return nil }
        let start = index
        // Anything but the closing quote that ends the plain run (an escape, a control or non-ASCII byte) says no.
        index = StrictJSONParser.endOfPlainRun(in: bytes, from: index)
        let key = start..<index
        return consume(UInt8(ascii: "\"")) ? key : nil
    }

    /// A string whose escapes are those the writer makes and whose other bytes are well-formed UTF-8 without
    /// control characters.
    private mutating func string() -> Bool {
        index += 1
        while true {
            // Printable ASCII other than quotes and backslashes needs no look, eight bytes at a time.
            index = StrictJSONParser.endOfPlainRun(in: bytes, from: index)
            guard let byte = current else { return false }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return true
            case UInt8(ascii: "\\"):
                guard escape() else { return false }
            case 0x80...:
                guard let length = StrictJSONParser.multiByteSequenceLength(bytes, at: index) else { return false }
                index += length
            default:
                return false
            }
        }
    }

    /// `\"`, `\\`, the five short control escapes, or `\u00xx` in lowercase hex for the other control characters.
    private mutating func escape() -> Bool {
        index += 1
        switch current {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
            UInt8(ascii: "r"), UInt8(ascii: "t"):
            index += 1
            return true
        case UInt8(ascii: "u"):
            guard index + 5 <= bytes.count, bytes[index + 1] == UInt8(ascii: "0"), bytes[index + 2] == UInt8(ascii: "0"),
                let high = Self.lowercaseHex(bytes[index + 3]), let low = Self.lowercaseHex(bytes[index + 4])
            else { return false }
            let scalar = high << 4 | low
            // The writer spells these five short, and writes no other character as `\u`.
            guard scalar < 0x20, ![0x08, 0x09, 0x0A, 0x0C, 0x0D].contains(scalar) else { return false }
            index += 5
            return true
        default:
            return false
        }
    }

    private static func lowercaseHex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    private mutating func literal(_ text: StaticString) -> Bool {
        let literal = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        guard index + literal.count <= bytes.count,
            JSONText.compareBytes(UnsafeBufferPointer(rebasing: bytes[index..<index + literal.count]), literal) == 0
        else { return false }
        index += literal.count
        return true
    }

    /// An integer as the writer writes it: no `-0`, no leading zero, at most 18 digits (so it fits `Int64`), and
    /// neither fraction nor exponent.
    private mutating func integer() -> Bool {
        let negative = consume(UInt8(ascii: "-"))
        let start = index
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        let digits = index - start
        guard digits > 0, digits <= 18 else { return false }
        if bytes[start] == UInt8(ascii: "0") {
            guard digits == 1, !negative else { return false }
        }
        return current != UInt8(ascii: ".") && current != UInt8(ascii: "e") && current != UInt8(ascii: "E")
    }
}
