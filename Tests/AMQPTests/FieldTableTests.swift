import CRabbitMQ
import Foundation
import Testing

@testable import AMQP

@Suite("Field tables and properties through librabbitmq's C representation and wire format")
struct FieldTableTests {
    static let everyValue: [(String, FieldValue)] = [
        ("bool-true", .bool(true)),
        ("bool-false", .bool(false)),
        ("int8", .int8(-128)),
        ("int16", .int16(-32_768)),
        ("int32", .int32(Int32.min)),
        ("int64", .int64(Int64.min)),
        ("uint8", .uint8(255)),
        ("uint16", .uint16(65_535)),
        ("uint32", .uint32(UInt32.max)),
        ("float", .float(-1.5)),
        ("double", .double(3.141_592_653_589_793)),
        ("decimal", .decimal(scale: 2, value: 12_345)),
        ("string", .string("grüße, 世界")),
        ("empty-string", .string("")),
        ("bytes", .bytes([0, 1, 0xFE, 0xFF])),
        ("empty-bytes", .bytes([])),
        ("timestamp", .timestamp(1_700_000_000)),
        ("timestamp-max", .timestamp(.max)),
        ("void", .void),
        ("array", .array([.int32(1), .string("two"), .array([.bool(true), .void]), .table(["deep": .double(0.5)])])),
        ("empty-array", .array([])),
        ("table", .table(["nested": .table(["deeper": .int64(7)]), "list": .array([.uint8(1)])])),
        ("empty-table", .table([:])),
    ]

    @Test("every value type survives Swift → amqp_table_t → Swift", arguments: everyValue.map(\.0))
    func roundTripsEachType(_ key: String) {
        let value = Self.everyValue.first { $0.0 == key }!.1
        let table: FieldTable = [key: value]
        let arena = Arena()
        let c = arena.table(table)
        #expect(c.num_entries == 1)
        #expect(FieldTable(c) == table)
    }

    @Test("a table of every type keeps its entries and their order")
    func roundTripsWholeTable() {
        let table = FieldTable(Self.everyValue)
        let arena = Arena()
        let decoded = FieldTable(arena.table(table))
        #expect(decoded == table)
        #expect(decoded.keys == Self.everyValue.map(\.0))
    }

    @Test("a table of every type survives librabbitmq's wire encoding and decoding")
    func roundTripsThroughWireFormat() throws {
        let table = FieldTable(Self.everyValue)
        let arena = Arena()
        var c = arena.table(table)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var written = 0
        let encoded = buffer.withUnsafeMutableBytes { raw in
            amqp_encode_table(amqp_bytes_t(len: raw.count, bytes: raw.baseAddress), &c, &written)
        }
        #expect(encoded == AMQP_STATUS_OK.rawValue)

        var pool = amqp_pool_t()
        init_amqp_pool(&pool, 4096)
        defer { empty_amqp_pool(&pool) }
        var decoded = amqp_table_t()
        var read = 0
        let status = buffer.withUnsafeMutableBytes { raw in
            amqp_decode_table(amqp_bytes_t(len: written, bytes: raw.baseAddress), &pool, &decoded, &read)
        }
        #expect(status == AMQP_STATUS_OK.rawValue)
        #expect(read == written)
        #expect(FieldTable(decoded) == table)
    }

    @Test("values are encoded with the type codes RabbitMQ expects")
    func kinds() {
        let expected: [(FieldValue, Character)] = [
            (.bool(true), "t"), (.int8(1), "b"), (.int16(1), "s"), (.int32(1), "I"), (.int64(1), "l"),
            (.uint8(1), "B"), (.uint16(1), "u"), (.uint32(1), "i"), (.float(1), "f"), (.double(1), "d"),
            (.decimal(scale: 1, value: 1), "D"), (.string("s"), "S"), (.rawString([0xFF]), "S"), (.bytes([1]), "x"), (.array([]), "A"),
            (.table([:]), "F"), (.timestamp(1), "T"), (.void, "V"),
        ]
        let arena = Arena()
        for (value, kind) in expected {
            #expect(Character(Unicode.Scalar(arena.value(value).kind)) == kind, "\(value)")
        }
    }

    @Test("timestamps travel in whole seconds, and any 64-bit value survives")
    func timestampPrecision() {
        let arena = Arena()
        let decoded = FieldValue(arena.value(.timestamp(Date(timeIntervalSince1970: 1_700_000_000.75))))
        #expect(decoded == .timestamp(1_700_000_000))
        #expect(arena.value(.timestamp(Date(timeIntervalSince1970: -5))).value.u64 == 0)
        #expect(arena.value(.timestamp(Date.distantFuture)).value.u64 == 64_092_211_200)
        #expect(arena.value(.timestamp(Date(timeIntervalSince1970: 1e30))).value.u64 == .max)
        #expect(arena.value(.timestamp(UInt64.max)).value.u64 == .max)
        #expect(FieldValue.timestamp(.max).dateValue == Date(timeIntervalSince1970: TimeInterval(UInt64.max)))
        var properties = MessageProperties(timestamp: .max)
        #expect(MessageProperties(arena.properties(properties)).timestamp == .max)
        properties.date = Date(timeIntervalSince1970: 12.5)
        #expect(properties.timestamp == 12)
    }

    @Test("a long string that is not UTF-8 arrives and leaves as its bytes")
    func invalidUTF8() {
        var field = amqp_field_value_t()
        field.kind = UInt8(AMQP_FIELD_KIND_UTF8.rawValue)
        let invalid: [UInt8] = [0x61, 0xFF, 0xC3, 0x00, 0x62]
        let arena = Arena()
        field.value.bytes = arena.bytes(invalid)
        #expect(FieldValue(field) == .rawString(invalid))
        #expect(FieldValue(arena.value(.rawString(invalid))) == .rawString(invalid), "sent as 'S', bytes unchanged")
        field.value.bytes = arena.bytes("grüße")
        #expect(FieldValue(field) == .string("grüße"))
    }

    @Test("librabbitmq decodes nesting as deep as a frame holds, and the client keeps 64 levels of it")
    func frameDeepNesting() {
        // One header holding 26,000 arrays inside each other: 5 bytes a level, as much as a 128 KiB frame carries.
        let depth = 26_000
        var wire = Array("\u{4}deep".utf8)
        for level in 0..<depth {
            let inner = UInt32(5 * (depth - level - 1) + 2)
            wire += [UInt8(ascii: "A")] + withUnsafeBytes(of: inner.bigEndian) { Array($0) }
        }
        wire += [UInt8(ascii: "b"), 1]
        let encoded = withUnsafeBytes(of: UInt32(wire.count).bigEndian) { Array($0) } + wire
        var pool = amqp_pool_t()
        init_amqp_pool(&pool, 64 * 1024)
        defer { empty_amqp_pool(&pool) }
        var table = amqp_table_t()
        var offset = 0
        let status = encoded.withUnsafeBytes { raw in
            amqp_decode_table(
                amqp_bytes_t(len: raw.count, bytes: UnsafeMutableRawPointer(mutating: raw.baseAddress)), &pool, &table,
                &offset)
        }
        #expect(status == AMQP_STATUS_OK.rawValue)
        var value = FieldTable(table)["deep"]
        var levels = 0
        while let inner = value?.arrayValue?.first {
            value = inner
            levels += 1
        }
        #expect(levels == 63, "the header table is the first of the 64 levels")
        #expect(value == .void)
    }

    @Test("values nested deeper than 64 tables or arrays are cut to void")
    func depth() {
        var deep = FieldValue.int8(1)
        for level in 0..<100 { deep = level.isMultiple(of: 2) ? .array([deep]) : .table(["k": deep]) }
        let arena = Arena()
        var decoded = FieldValue(arena.value(deep))
        var levels = 0
        while true {
            if let inner = decoded.arrayValue?.first {
                decoded = inner
            } else if let inner = decoded.tableValue?["k"] {
                decoded = inner
            } else {
                break
            }
            levels += 1
        }
        #expect(levels == 64)
        #expect(decoded == .void)
    }

    @Test("an unsigned 64-bit value from another client keeps its bits")
    func unsigned64() {
        var field = amqp_field_value_t()
        field.kind = UInt8(AMQP_FIELD_KIND_U64.rawValue)
        field.value.u64 = 42
        #expect(FieldValue(field) == .int64(42))
    }

    @Test("every basic property survives Swift → amqp_basic_properties_t → Swift")
    func propertiesRoundTrip() {
        let properties = MessageProperties(
            contentType: "application/cloudevents+json", contentEncoding: "identity", messageID: "msg-1",
            correlationID: "corr-1", type: "notification.response", appID: "responder", timestamp: 1_700_000_001,
            deliveryMode: .persistent, headers: FieldTable(Self.everyValue), priority: 9, replyTo: "replies",
            expiration: "60000", userID: "guest")
        let arena = Arena()
        #expect(MessageProperties(arena.properties(properties)) == properties)
    }

    @Test("properties left out are not sent")
    func emptyProperties() {
        let arena = Arena()
        let c = arena.properties(MessageProperties())
        #expect(c._flags == 0)
        #expect(MessageProperties(c) == MessageProperties())
        let transient = arena.properties(MessageProperties(deliveryMode: .transient))
        #expect(transient._flags == amqp_flags_t(AMQP_BASIC_DELIVERY_MODE_FLAG))
        #expect(transient.delivery_mode == 1)
    }
}
