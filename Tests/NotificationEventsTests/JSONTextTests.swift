import Foundation
@testable import NotificationEvents
import Testing

/// The string and integer writers write what Foundation's `JSONEncoder` writes, wherever in a string the byte that
/// needs a look falls: the string writer skips plain runs eight bytes at a time, so each special byte is tried at
/// every offset of a word, at its edges and after a run longer than one word.
@Suite struct JSONTextTests {
    @Test func stringsMatchFoundationWithTheSpecialByteAtEveryOffset() throws {
        for special in ["\"", "\\", "\n", "\u{01}", "\u{1F}", "é", "€", "😀", "\u{7F}", "/"] {
            for offset in 0...17 {
                let text = String(repeating: "a", count: offset) + special + String(repeating: "b", count: 17 - offset)
                var bytes: [UInt8] = []
                JSONText.appendString(text, to: &bytes)
                let foundation = Array(try EventCodec.encoder.encode(text))
                #expect(bytes == foundation, "\(special.unicodeScalars.map(\.value)) at \(offset)")
            }
        }
    }

    @Test func integersMatchTheirDecimalTextAtTheEdgesOfEachType() {
        func written(_ value: some BinaryInteger) -> String {
            var bytes: [UInt8] = []
            JSONText.appendInteger(value, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
        for value in [Int64.min, Int64.min + 1, -10, -9, -1, 0, 1, 9, 10, 99, 100, Int64.max] {
            #expect(written(value) == "\(value)")
            // The digits are written in place: after what the buffer already holds.
            var bytes: [UInt8] = [UInt8(ascii: "x")]
            JSONText.appendInteger(value, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == "x\(value)")
        }
        #expect(written(UInt64.max) == "\(UInt64.max)")
        #expect(written(Int8.min) == "-128")
        #expect(written(UInt8.max) == "255")
    }
}
