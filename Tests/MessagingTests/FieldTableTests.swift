import Foundation
import Messaging
import Testing

/// A field table as a Swift value: its keys' order and editing, and the accessors of its values.
@Suite struct FieldTableTests {
    @Test("keys keep their first position; assigning nil removes")
    func editing() {
        var table: FieldTable = ["a": 1, "b": "two", "a": 3]
        #expect(table.keys == ["a", "b"])
        #expect(table["a"] == .int64(3))
        table["c"] = true
        table["b"] = nil
        table["missing"] = nil
        #expect(table.keys == ["a", "c"])
        #expect(table.count == 2)
        #expect(!table.isEmpty && FieldTable().isEmpty)
        #expect(Array(table).map(\.key) == ["a", "c"])
        #expect(table != ["c": true, "a": 3])
    }

    @Test("accessors read the matching cases")
    func accessors() {
        let table: FieldTable = [
            "x-attempts": .int32(3), "small": .uint8(7), "text": "hello", "flag": true, "ratio": 0.25,
            "single": .float(0.5), "raw": .bytes([9]), "list": [1, "a"], "nested": ["k": "v"],
            "when": .timestamp(60),
        ]
        #expect(table["x-attempts"]?.intValue == 3)
        #expect(table["small"]?.intValue == 7)
        #expect(table["text"]?.stringValue == "hello")
        #expect(table["text"]?.intValue == nil)
        #expect(table["flag"]?.boolValue == true)
        #expect(table["ratio"]?.doubleValue == 0.25)
        #expect(table["single"]?.doubleValue == 0.5)
        #expect(table["x-attempts"]?.doubleValue == 3)
        #expect(table["raw"]?.bytesValue == [9])
        #expect(table["list"]?.arrayValue == [.int64(1), .string("a")])
        #expect(table["nested"]?.tableValue?["k"]?.stringValue == "v")
        #expect(table["when"]?.dateValue == Date(timeIntervalSince1970: 60))
        #expect(table["missing"] == nil)
    }
}
