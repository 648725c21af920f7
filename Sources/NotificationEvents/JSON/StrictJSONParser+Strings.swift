/// The parser's reading of a string's bytes, which the readers of its tape share: where the plain run ends, what an
/// escape stands for, and the text with the escapes decoded.
extension StrictJSONParser {
    /// The index of the first byte from `start` on that a string must look at (a quote, a backslash, a control
    /// character or a byte beyond ASCII), or the end: most of a string needs no attention.
    static func endOfPlainRun(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        // Eight bytes at a time, with the classic "has a byte less than" and "has a zero byte" bit tricks: the
        // lowest flagged byte is always a true one, so its position is the answer.
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self))
            let control = (word &- ones &* 0x20) & ~word
            let quoteBytes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
            let backslashBytes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
            let quote = (quoteBytes &- ones) & ~quoteBytes
            let backslash = (backslashBytes &- ones) & ~backslashBytes
            let flagged = (word | control | quote | backslash) & highBits
            if flagged != 0 { return index + flagged.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < bytes.count {
            let byte = bytes[index]
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else { break }
            index += 1
        }
        return index
    }

    /// The scalar the escape starting at `start` (its backslash) stands for, and the index after it.
    static func escape(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) throws(EventDecodingError) -> (scalar: Unicode.Scalar, next: Int) {
        guard start + 1 < bytes.count else { throw .malformedJSON("unterminated string") }
        switch bytes[start + 1] {
        case UInt8(ascii: "\""): return ("\"", start + 2)
        case UInt8(ascii: "\\"): return ("\\", start + 2)
        case UInt8(ascii: "/"): return ("/", start + 2)
        case UInt8(ascii: "b"): return ("\u{08}", start + 2)
        case UInt8(ascii: "f"): return ("\u{0C}", start + 2)
        case UInt8(ascii: "n"): return ("\n", start + 2)
        case UInt8(ascii: "r"): return ("\r", start + 2)
        case UInt8(ascii: "t"): return ("\t", start + 2)
        case UInt8(ascii: "u"):
            let unit = try hexUnit(in: bytes, at: start + 2, escapeStart: start)
            var next = start + 6
            if UTF16.isLeadSurrogate(unit), bytes[next...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) {
                let trail = try hexUnit(in: bytes, at: next + 2, escapeStart: start)
                next += 6
                if UTF16.isTrailSurrogate(trail) {
                    return (Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(trail) - 0xDC00))!, next)
                }
            }
            guard let scalar = Unicode.Scalar(unit) else {
                throw .malformedJSON("unpaired UTF-16 surrogate in a \\u escape (byte \(start))")
            }
            return (scalar, next)
        default:
            throw .malformedJSON("invalid escape in a string (byte \(start))")
        }
    }

    private static func hexUnit(in bytes: UnsafeBufferPointer<UInt8>, at start: Int, escapeStart: Int) throws(EventDecodingError) -> UInt16 {
        guard start + 4 <= bytes.count else { throw .malformedJSON("invalid \\u escape in a string (byte \(escapeStart))") }
        var unit: UInt16 = 0
        for byte in bytes[start..<start + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .malformedJSON("invalid \\u escape in a string (byte \(escapeStart))")
            }
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }

    /// The text of a string the parser accepted, with its escapes decoded.
    static func decodeString(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            guard bytes[index] == UInt8(ascii: "\\") else {
                decoded.append(bytes[index])
                index += 1
                continue
            }
            do {
                let (scalar, next) = try escape(in: bytes, at: index)
                decoded.append(contentsOf: UTF8.encode(scalar)!)
                index = next
            } catch {
                preconditionFailure("an escape the parser accepted does not decode: \(error)")
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }
}
