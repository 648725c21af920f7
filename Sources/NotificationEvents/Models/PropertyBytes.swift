/// The UTF-8 bytes of a message property (a content type, a content encoding), read in place: the words the contract
/// names in them are ASCII, so they are compared byte by byte, ASCII letters folded, without a `String` of any part.
typealias PropertyBytes = Slice<UnsafeBufferPointer<UInt8>>

extension String {
    /// `body`'s answer on this string's UTF-8 bytes, read in place.
    func withPropertyBytes<Result>(_ body: (PropertyBytes) -> Result) -> Result {
        var contiguous = self
        return contiguous.withUTF8 { body($0[...]) }
    }
}

extension Slice where Base == UnsafeBufferPointer<UInt8> {
    /// Without the spaces and tabs before the first other byte.
    var droppingLeadingBlanks: Self {
        var start = startIndex
        while start < endIndex, Self.isBlank(self[start]) { start += 1 }
        return self[start...]
    }

    /// Without the spaces and tabs at either end.
    var trimmingBlanks: Self {
        let rest = droppingLeadingBlanks
        var end = rest.endIndex
        while end > rest.startIndex, Self.isBlank(self[end - 1]) { end -= 1 }
        return rest[..<end]
    }

    /// What follows `word` when these bytes start with it, an ASCII capital letter read as its small letter; nil
    /// otherwise. `word`'s letters are small ones, and its other bytes are below `@` (digits and punctuation).
    func dropping(wordIgnoringASCIICase word: StaticString) -> Self? {
        let length = word.utf8CodeUnitCount
        guard count >= length, let start = base.baseAddress.map({ UnsafeRawPointer($0 + startIndex) }) else {
            return length == 0 ? self : nil
        }
        let expected = UnsafeRawPointer(word.utf8Start)
        // Eight bytes at a time: where `word` has a small letter (bit 0x40 set, which no other byte of it has),
        // the found byte's bit 0x20 is set before comparing, which makes its capital the same letter and no other
        // byte a letter.
        var offset = 0
        while offset + 8 <= length {
            let letters = expected.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let found = start.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            guard found | (letters & 0x4040_4040_4040_4040) >> 1 == letters else { return nil }
            offset += 8
        }
        while offset < length {
            let letter = expected.load(fromByteOffset: offset, as: UInt8.self)
            guard start.load(fromByteOffset: offset, as: UInt8.self) | (letter & 0x40) >> 1 == letter else { return nil }
            offset += 1
        }
        return self[(startIndex + length)...]
    }

    /// Whether these bytes are `word`'s, an ASCII capital letter read as its small letter (`word` as above).
    func equals(ignoringASCIICase word: StaticString) -> Bool {
        dropping(wordIgnoringASCIICase: word)?.isEmpty == true
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
}
