import AMQP
import Foundation
import NotificationEvents
import WorkerHarness

/// One message whose properties and headers are hostile: what it carries and how the worker must end it.
struct HostilePropertiesMessage: Sendable {
    enum Expected: Sendable, Equatable {
        /// Handled like any input: its update arrives (its event id is `hp-<name>`).
        case handled
        /// Dead-lettered for this reason (by the worker, or by the broker for an oversized body).
        case deadLettered(DeadLetterReason)
    }

    var name: String
    var body: [UInt8]
    var properties: MessageProperties
    var routingKey = "red-category"
    var expected: Expected
}

/// Messages a hostile producer can get past the broker, aimed at the properties and headers rather than the body:
/// every AMQP field type the broker takes (decimals at scale 255, byte arrays, void, extreme floats), timestamps at the ends of
/// 64 bits, nesting as deep as a frame allows, long strings that are not UTF-8, very long values, thousands of
/// headers, a header table filling the frame, short strings of 255 bytes with NUL bytes, forged `x-responder-*`
/// headers, broken trace headers, details that would quote kilobytes, and bodies over the limit. A valid body
/// (a first tap on a notification of its own) must be handled; a broken one dead-lettered with a bounded detail.
enum HostilePropertiesCorpus {
    static let valueLimit = 255

    static func messages() -> [HostilePropertiesMessage] {
        timestamps() + fieldTypes() + nesting() + sizes() + shortStrings() + forged() + traces() + bodies()
    }

    /// The W3C example trace parent, valid: the update must carry it.
    static let validTraceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"

    private static func timestamps() -> [HostilePropertiesMessage] {
        let extremes: [UInt64] = [0, (1 << 63) - 1, 1 << 63, .max]
        return extremes.map { seconds in
            handled("timestamp-property-\(seconds)", MessageProperties(timestamp: seconds))
        } + [
            handled("timestamp-header-max", headers: ["when": .timestamp(.max), "then": .timestamp(1 << 63)]),
        ]
    }

    private static func fieldTypes() -> [HostilePropertiesMessage] {
        // NaN and infinities are not here: RabbitMQ 3.10 cannot parse them and closes the publisher's connection
        // (541 INTERNAL_ERROR), so they never reach a consumer. MessagePropertiesJSONTests and the fuzzer cover them.
        let values: [(String, FieldValue)] = [
            ("double-max", .double(.greatestFiniteMagnitude)), ("float-min", .float(-.greatestFiniteMagnitude)),
            ("double-subnormal", .double(.leastNonzeroMagnitude)), ("double-negative-zero", .double(-0.0)),
            ("decimal-scale-255", .decimal(scale: 255, value: .max)), ("decimal-scale-0", .decimal(scale: 0, value: .max)),
            ("bytes-empty", .bytes([])), ("bytes-64-kib", .bytes(Array(repeating: 0xFF, count: 64 * 1024))),
            ("void", .void), ("integers-at-their-limits",
                              .array([.int8(.min), .int16(.min), .int32(.min), .int64(.min), .int64(.max),
                                      .uint8(.max), .uint16(.max), .uint32(.max), .bool(false)])),
            ("invalid-utf8-long-string", .rawString(Array(repeating: 0xFF, count: 4096) + [0xC0, 0xAF, 0xED, 0xA0, 0x80])),
        ]
        var messages = values.map { name, value in handled("type-\(name)", headers: ["x-value": value]) }
        messages.append(handled("every-type-in-one-table", headers: FieldTable(values)))
        return messages
    }

    private static func nesting() -> [HostilePropertiesMessage] {
        func arrays(_ depth: Int) -> FieldValue {
            (0..<depth).reduce(FieldValue.int8(1)) { inner, _ in .array([inner]) }
        }
        func tables(_ depth: Int) -> FieldValue {
            (0..<depth).reduce(FieldValue.int8(1)) { inner, _ in .table(["k": inner]) }
        }
        return [
            handled("arrays-64-deep", headers: ["deep": arrays(64)]),
            handled("arrays-1000-deep", headers: ["deep": arrays(1000)]),
            handled("tables-1000-deep", headers: ["deep": tables(1000)]),
            handled("arrays-5000-deep", headers: ["deep": arrays(5_000)]),
            deadLettered("tables-3000-deep-broken-body", headers: ["deep": tables(3_000)], .malformedJSON),
        ]
    }

    private static func sizes() -> [HostilePropertiesMessage] {
        let thousands = FieldTable((0..<5_000).map { ("h\($0)", FieldValue.int8(1)) })
        // Fills a 128 KiB frame alone: with the failure headers added, the dead letter cannot keep it.
        let frameFiller: FieldTable = ["filler": .bytes(Array(repeating: 0x41, count: 130_700))]
        return [
            handled("string-100-kib", headers: ["long": .string(String(repeating: "l", count: 100 * 1024))]),
            handled("5000-headers", headers: thousands),
            deadLettered("5000-headers-broken-body", headers: thousands, .malformedJSON),
            handled("headers-filling-the-frame", headers: frameFiller),
            deadLettered("headers-filling-the-frame-broken-body", headers: frameFiller, .malformedJSON),
        ]
    }

    private static func shortStrings() -> [HostilePropertiesMessage] {
        let nul255 = String(repeating: "a\u{0}", count: 127) + "z"
        var messageID = MessageProperties(messageID: nul255)
        messageID.contentType = EventContentType.cloudEvents
        let key255 = String(repeating: "k\u{0}", count: 127) + "k"
        return [
            handled("message-id-255-with-nul", messageID),
            handled("correlation-id-type-app-id-reply-to-255", MessageProperties(
                contentType: EventContentType.cloudEvents, correlationID: nul255, type: nul255, appID: nul255, replyTo: nul255)),
            handled("header-name-255-with-nul", headers: [key255: "v"]),
            deadLettered("content-type-255-with-nul", MessageProperties(contentType: nul255), .unsupportedContentType),
            deadLettered("content-encoding-255", MessageProperties(contentType: EventContentType.cloudEvents, contentEncoding: nul255),
                         .unsupportedContentType),
            handled("routing-key-255", MessageProperties(contentType: EventContentType.cloudEvents), routingKey: String(repeating: "r", count: 255)),
        ]
    }

    private static func forged() -> [HostilePropertiesMessage] {
        let longKey = String(repeating: "x", count: 1000)
        return [
            handled("forged-history-on-a-good-event", headers: [
                "x-responder-attempts": .int64(.max), "x-responder-reason": "cosmic-rays",
                "x-responder-original-routing-key": .string(longKey),
            ]),
            deadLettered("forged-attempts-max", headers: ["x-responder-attempts": .int64(.max)], .malformedJSON),
            deadLettered("forged-attempts-negative", headers: ["x-responder-attempts": .int64(.min)], .malformedJSON),
            deadLettered("forged-attempts-as-string", headers: ["x-responder-attempts": "1e999"], .malformedJSON),
            deadLettered("forged-original-routing-key-1000", headers: ["x-responder-original-routing-key": .string(longKey)],
                         .malformedJSON),
            deadLettered("forged-original-routing-key-not-utf8",
                         headers: ["x-responder-original-routing-key": .rawString(Array(repeating: 0xFE, count: 200))],
                         .malformedJSON),
            deadLettered("forged-original-exchange-table", headers: ["x-responder-original-exchange": ["a": 1]], .malformedJSON),
            deadLettered("forged-first-failure-garbage",
                         headers: ["x-responder-first-failure": .string(String(repeating: "9", count: 10_000))], .malformedJSON),
            deadLettered("forged-detail-100-kib",
                         headers: ["x-responder-detail": .string(String(repeating: "d", count: 100 * 1024))], .malformedJSON),
        ]
    }

    private static func traces() -> [HostilePropertiesMessage] {
        [
            handled("traceparent-valid", headers: ["traceparent": .string(validTraceparent), "tracestate": "vendor=value"]),
            handled("traceparent-integer", headers: ["traceparent": .int64(42)]),
            handled("traceparent-uppercase", headers: ["traceparent": .string(validTraceparent.uppercased())]),
            handled("traceparent-100-kib", headers: ["traceparent": .string(String(repeating: "0", count: 100 * 1024))]),
            handled("traceparent-table", headers: ["traceparent": ["a": .double(1)]]),
            handled("tracestate-100-kib", headers: [
                "traceparent": .string(validTraceparent), "tracestate": .string("k=" + String(repeating: "v", count: 100 * 1024)),
            ]),
            handled("tracestate-not-utf8", headers: ["traceparent": .string(validTraceparent), "tracestate": .rawString([0xFF, 0x3D])]),
        ]
    }

    private static func bodies() -> [HostilePropertiesMessage] {
        // An unknown type quoting 100 KiB: the detail would repeat it without the bound.
        let longType = Array(#"{"specversion":"1.0","id":"x","source":"/s","type":""#.utf8)
            + Array(repeating: UInt8(ascii: "t"), count: 100 * 1024) + Array(#"","data":{}}"#.utf8)
        return [
            HostilePropertiesMessage(
                name: "detail-quoting-100-kib", body: longType,
                properties: MessageProperties(contentType: EventContentType.cloudEvents), expected: .deadLettered(.unknownType)),
            HostilePropertiesMessage(
                name: "body-over-the-limit-with-hostile-headers",
                body: Array(repeating: UInt8(ascii: " "), count: 300 * 1024) + EventCodec.encode(event("body-over-the-limit")),
                properties: MessageProperties(contentType: EventContentType.cloudEvents, headers: ["x-value": .decimal(scale: 255, value: 1)]),
                expected: .deadLettered(.bodyTooLarge)),
            HostilePropertiesMessage(
                name: "body-4-mib", body: Array(repeating: 0x7B, count: 4 * 1024 * 1024),
                properties: MessageProperties(timestamp: .max), expected: .deadLettered(.bodyTooLarge)),
        ]
    }

    // MARK: - Building blocks

    /// The event of a message, on a notification of its own.
    static func event(_ name: String) -> NotificationResponseEvent {
        RedGreenTaps.event(id: "hp-\(name)", request: "hp-\(name)")
    }

    private static func handled(
        _ name: String, _ properties: MessageProperties = MessageProperties(contentType: EventContentType.cloudEvents),
        headers: FieldTable = [:], routingKey: String = "red-category"
    ) -> HostilePropertiesMessage {
        var properties = properties
        if !headers.isEmpty { properties.headers = headers }
        return HostilePropertiesMessage(
            name: name, body: EventCodec.encode(event(name)), properties: properties, routingKey: routingKey,
            expected: .handled)
    }

    /// A broken body (its name in unclosed JSON), so the headers go through dead-lettering.
    private static func deadLettered(
        _ name: String, _ properties: MessageProperties = MessageProperties(contentType: EventContentType.cloudEvents),
        headers: FieldTable = [:], _ reason: DeadLetterReason
    ) -> HostilePropertiesMessage {
        var properties = properties
        if !headers.isEmpty { properties.headers = headers }
        let body = reason == .malformedJSON ? Array("{\"broken\":\"\(name)\"".utf8) : EventCodec.encode(event(name))
        return HostilePropertiesMessage(name: name, body: body, properties: properties, expected: .deadLettered(reason))
    }
}
