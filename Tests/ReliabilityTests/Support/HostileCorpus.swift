import BrokerHarness
import Foundation
import NotificationEvents
import WorkerHarness

/// One message the worker must refuse: its body and content headers, and the dead-letter reason it must get.
struct HostileMessage: Sendable {
    var name: String
    var body: [UInt8]
    var contentType: String? = EventContentType.cloudEvents
    var contentEncoding: String?
    var expected: DeadLetterReason
}

/// Hostile inputs, generated (large ones are never committed): broken JSON, hostile nesting and sizes, invalid
/// UTF-8, a wrong type in each field, NaN, duplicate keys, NUL bytes in identifiers, unknown event types and
/// versions, wrong content types and plain binary. Each is built on a valid event of a notification of its own,
/// so one that slipped through would show up as an update.
enum HostileCorpus {
    /// Marks where raw bytes go into a serialised body, for what JSONSerialization cannot write.
    private static let marker = "@@raw@@"

    static func messages() throws -> [HostileMessage] {
        try broken() + wrongTypes() + nulInIdentifiers() + unknownEvents() + contentTypes() + oversized()
    }

    /// Valid events the worker must process although they look odd, by event id (`tolerated-…`); each is the first
    /// tap on a notification of its own, so each yields one update.
    static func tolerated() throws -> [(id: String, body: [UInt8], contentType: String?)] {
        func tolerated(_ name: String, raw: [UInt8]? = nil, _ change: (inout [String: Any]) -> Void) throws -> [UInt8] {
            try body(name, kind: "tolerated", raw: raw, change)
        }
        let plain = EventCodec.encode(event("no-content-type", kind: "tolerated"))
        let charset = EventCodec.encode(event("utf8-charset", kind: "tolerated"))
        return [
            ("tolerated-no-content-type", plain, nil),
            ("tolerated-utf8-charset", charset, "application/json; charset=utf-8"),
            ("tolerated-unknown-fields",
             try tolerated("unknown-fields") { set(["extension"], ["anything": [1, 2, 3]], in: &$0) }, EventContentType.cloudEvents),
            ("tolerated-user-info-50-deep",
             try tolerated("user-info-50-deep", raw: nested(50)) { set(userInfo + ["deep"], marker, in: &$0) },
             EventContentType.cloudEvents),
            ("tolerated-user-info-10000-members",
             try tolerated("user-info-10000-members") {
                 set(userInfo, Dictionary(uniqueKeysWithValues: (0..<10_000).map { ("k\($0)", $0) }), in: &$0)
             }, EventContentType.cloudEvents),
        ]
    }

    // MARK: - The corpus

    private static func broken() throws -> [HostileMessage] {
        let valid = EventCodec.encode(event("template"))
        func inTitle(_ name: String, _ bytes: [UInt8]) throws -> HostileMessage {
            refused(name, try body(name, raw: [UInt8(ascii: "\"")] + bytes + [UInt8(ascii: "\"")]) {
                set(content + ["title"], marker, in: &$0)
            }, .malformedJSON)
        }
        func badge(_ name: String, _ literal: String) throws -> HostileMessage {
            refused(name, try body(name, raw: Array(literal.utf8)) { set(content + ["badge"], marker, in: &$0) }, .malformedJSON)
        }
        return [
            refused("truncated-half", Array(valid.prefix(valid.count / 2)), .malformedJSON),
            refused("truncated-last-byte", Array(valid.dropLast()), .malformedJSON),
            refused("truncated-after-key", Array(#"{"specversion":"1.0","id":"#.utf8), .malformedJSON),
            refused("nesting-10000-arrays", nested(10_000), .malformedJSON),
            refused("nesting-10000-objects",
                    Array((String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)).utf8),
                    .malformedJSON),
            refused("nesting-10000-unclosed", Array(String(repeating: "[", count: 10_000).utf8), .malformedJSON),
            refused("nesting-10000-in-user-info",
                    try body("nesting-10000-in-user-info", raw: nested(10_000)) { set(userInfo + ["deep"], marker, in: &$0) },
                    .malformedJSON),
            try inTitle("invalid-utf8-ff", [0x52, 0xFF, 0x64]),
            try inTitle("invalid-utf8-overlong-slash", [0xC0, 0xAF]),
            try inTitle("invalid-utf8-encoded-surrogate", [0xED, 0xA0, 0x80]),
            try inTitle("invalid-utf8-cut-sequence", [0xE2, 0x82]),
            try inTitle("invalid-utf8-beyond-unicode", [0xF4, 0x90, 0x80, 0x80]),
            try inTitle("raw-control-character", [0x01]),
            try inTitle("raw-nul-byte", [0x61, 0x00, 0x62]),
            try inTitle("lone-surrogate-escape", Array(#"\ud800"#.utf8)),
            try badge("nan", "NaN"),
            try badge("infinity", "Infinity"),
            try badge("negative-infinity", "-Infinity"),
            try badge("number-beyond-double", "1e999"),
            try badge("leading-zero", "01"),
            try badge("hex-number", "0x1"),
            // The contract words a duplicate key as a broken field (`id: duplicate key`), not as broken JSON.
            refused("duplicate-key-id", Array(#"{"id":"dup-1","#.utf8) + valid.dropFirst(), .invalidField),
            refused("duplicate-key-nested",
                    try body("duplicate-key-nested", raw: Array(#""a","identifier":"b""#.utf8)) {
                        set(request + ["identifier"], marker, in: &$0)
                    }, .invalidField),
            refused("duplicate-key-after-normalisation",
                    try body("duplicate-key-after-normalisation", raw: Array("{\"\u{E9}\":1,\"e\u{301}\":2}".utf8)) {
                        set(userInfo, marker, in: &$0)
                    }, .invalidField),
            refused("plain-binary", randomBytes(4096, seed: 1), .malformedJSON),
            refused("png-header", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + randomBytes(512, seed: 2), .malformedJSON),
            refused("empty-body", [], .malformedJSON),
            refused("whitespace-only", Array(" \n\t\r ".utf8), .malformedJSON),
            refused("byte-order-mark", [0xEF, 0xBB, 0xBF] + valid, .malformedJSON),
            refused("trailing-garbage", valid + Array("x".utf8), .malformedJSON),
            refused("two-documents", valid + valid, .malformedJSON),
            refused("single-quoted", valid.map { $0 == UInt8(ascii: "\"") ? UInt8(ascii: "'") : $0 }, .malformedJSON),
            refused("trailing-comma", Array(valid.dropLast()) + Array(",}".utf8), .malformedJSON),
            refused("comment", Array("/* hello */".utf8) + valid, .malformedJSON),
            refused("utf16-without-content-type", Array(String(decoding: valid, as: UTF8.self).utf16).flatMap {
                [UInt8($0 & 0xFF), UInt8($0 >> 8)]
            }, contentType: nil, .malformedJSON),
        ]
    }

    private static func wrongTypes() throws -> [HostileMessage] {
        let changes: [(String, [String], Any?)] = [
            ("specversion-number", ["specversion"], 1.0),
            ("id-number", ["id"], 7),
            ("id-empty", ["id"], ""),
            ("id-null", ["id"], NSNull()),
            ("id-missing", ["id"], nil),
            ("id-object", ["id"], ["nested": "id"]),
            ("source-number", ["source"], 1),
            ("source-empty", ["source"], ""),
            ("type-number", ["type"], 1),
            ("type-missing", ["type"], nil),
            ("time-number", ["time"], 1_795_165_200),
            ("time-not-a-date", ["time"], "yesterday at noon"),
            ("subject-number", ["subject"], 5),
            ("subject-not-the-request", ["subject"], "another-notification"),
            ("datacontenttype-number", ["datacontenttype"], 3),
            ("data-string", ["data"], "data"),
            ("data-null", ["data"], NSNull()),
            ("data-missing", ["data"], nil),
            ("action-identifier-number", ["data", "actionIdentifier"], 42),
            ("action-identifier-empty", ["data", "actionIdentifier"], ""),
            ("action-identifier-missing", ["data", "actionIdentifier"], nil),
            ("action-identifier-100000-actions", ["data", "actionIdentifier"], [Int](repeating: 0, count: 100_000)),
            ("user-text-number", ["data", "userText"], 12),
            ("notification-array", ["data", "notification"], [1, 2]),
            ("notification-date-number", ["data", "notification", "date"], 0),
            ("notification-date-garbage", ["data", "notification", "date"], "2026-13-45T99:00:00Z"),
            ("request-string", request, "request"),
            ("request-identifier-number", request + ["identifier"], 17),
            ("request-identifier-empty", request + ["identifier"], ""),
            ("request-identifier-missing", request + ["identifier"], nil),
            ("content-null", content, NSNull()),
            ("category-identifier-boolean", content + ["categoryIdentifier"], true),
            ("category-identifier-missing", content + ["categoryIdentifier"], nil),
            ("badge-string", content + ["badge"], "1"),
            ("badge-negative", content + ["badge"], -1),
            ("badge-fraction", content + ["badge"], 1.5),
            ("title-number", content + ["title"], 9),
            ("user-info-array", userInfo, ["not", "an", "object"]),
            ("trigger-string", request + ["trigger"], "push"),
            ("trigger-type-unknown", request + ["trigger", "type"], "telepathy"),
        ]
        var messages = try changes.map { name, path, value in
            refused(name, try body(name) { object in
                // Without a subject, only the changed field can be what is wrong.
                if path != ["subject"] { set(["subject"], nil, in: &object) }
                set(path, value, in: &object)
            }, .invalidField)
        }
        messages.append(refused("user-text-with-default-action", try body("user-text-with-default-action") {
            set(["data", "actionIdentifier"], ActionIdentifier.defaultActionIdentifier, in: &$0)
            set(["data", "userText"], "hello", in: &$0)
        }, .invalidField))
        for (name, document) in [("json-null", "null"), ("top-level-array", "[]"), ("top-level-string", "\"event\""),
                                 ("top-level-number", "42"), ("empty-object", "{}")] {
            messages.append(refused(name, Array(document.utf8), .invalidField))
        }
        return messages
    }

    /// A NUL character (escaped as `\u0000`, so the JSON itself is valid) in each identifier.
    private static func nulInIdentifiers() throws -> [HostileMessage] {
        try [
            ("nul-in-event-id", ["id"]),
            ("nul-in-request-identifier", request + ["identifier"]),
            ("nul-in-action-identifier", ["data", "actionIdentifier"]),
            ("nul-in-category-identifier", content + ["categoryIdentifier"]),
        ].map { name, path in
            refused(name, try body(name) { object in
                set(["subject"], nil, in: &object)
                set(path, "before\u{0}after", in: &object)
            }, .invalidField)
        }
    }

    private static func unknownEvents() throws -> [HostileMessage] {
        let types: [(String, String)] = [
            ("type-unknown", "notification.opened.v1"), ("type-empty", ""),
            ("type-of-the-output", EventType.actionSetUpdated), ("type-in-capitals", "NOTIFICATION.RESPONSE.V1"),
        ]
        let versions: [(String, String)] = [
            ("specversion-0.3", "0.3"), ("specversion-2.0", "2.0"), ("specversion-trailing-space", "1.0 "),
            ("specversion-empty", ""),
        ]
        return try types.map { name, type in
            refused(name, try body(name) { set(["type"], type, in: &$0) }, .unknownType)
        } + versions.map { name, version in
            refused(name, try body(name) { set(["specversion"], version, in: &$0) }, .unknownSpecVersion)
        }
    }

    private static func contentTypes() throws -> [HostileMessage] {
        let types = [
            ("content-type-text-plain", "text/plain"), ("content-type-xml", "application/xml"),
            ("content-type-batch", "application/cloudevents-batch+json"), ("content-type-latin1", "application/json; charset=latin-1"),
        ]
        var messages = types.map { name, type in
            refused(name, EventCodec.encode(event(name)), contentType: type, .unsupportedContentType)
        }
        let utf16 = Array(String(decoding: EventCodec.encode(event("content-type-utf16")), as: UTF8.self).utf16)
            .flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        messages.append(refused("content-type-utf16", utf16, contentType: "application/json; charset=utf-16", .unsupportedContentType))
        messages.append(refused("content-type-octet-stream", randomBytes(1024, seed: 3), contentType: "application/octet-stream",
                                .unsupportedContentType))
        var gzip = refused("content-encoding-gzip", [0x1F, 0x8B, 0x08, 0x00] + randomBytes(256, seed: 4), .unsupportedContentType)
        gzip.contentEncoding = "gzip"
        messages.append(gzip)
        return messages
    }

    private static func oversized() throws -> [HostileMessage] {
        let limit = 256 * 1024
        return [
            refused("body-10-mib",
                    try body("body-10-mib") { set(content + ["body"], String(repeating: "a", count: 10 * 1024 * 1024), in: &$0) },
                    .bodyTooLarge),
            refused("binary-10-mib-without-content-type", randomBytes(10 * 1024 * 1024, seed: 5), contentType: nil, .bodyTooLarge),
            refused("user-info-100000-actions",
                    try body("user-info-100000-actions") {
                        set(userInfo + ["actions"], (0..<100_000).map { ["identifier": "action-\($0)", "title": "Action \($0)"] },
                                in: &$0)
                    }, .bodyTooLarge),
            refused("one-byte-over-the-limit", try padded("one-byte-over-the-limit", to: limit + 1), .bodyTooLarge),
        ]
    }

    // MARK: - Building blocks

    private static let request = ["data", "notification", "request"]
    private static let content = request + ["content"]
    private static let userInfo = content + ["userInfo"]

    private static func refused(
        _ name: String, _ body: [UInt8], contentType: String? = EventContentType.cloudEvents, _ expected: DeadLetterReason
    ) -> HostileMessage {
        HostileMessage(name: name, body: body, contentType: contentType, expected: expected)
    }

    /// A first rotate tap on a notification named after the message: `<kind>-<name>` is its event id and request.
    private static func event(_ name: String, kind: String = "hostile") -> NotificationResponseEvent {
        RedGreenTaps.event(id: "\(kind)-\(name)", request: "\(kind)-\(name)")
    }

    /// The event of `name` as a JSON object changed by `change`, serialised; `raw` replaces the string `marker`.
    private static func body(
        _ name: String, kind: String = "hostile", raw: [UInt8]? = nil, _ change: (inout [String: Any]) -> Void
    ) throws -> [UInt8] {
        let bytes = Events.body(event(name, kind: kind), change)
        guard let raw else { return bytes }
        let quotedMarker = Array("\"\(marker)\"".utf8)
        guard let range = bytes.firstRange(of: quotedMarker) else { throw HarnessError("\(name): no marker") }
        return Array(bytes[..<range.lowerBound]) + raw + Array(bytes[range.upperBound...])
    }

    /// A valid event padded in its body text to exactly `size` bytes.
    private static func padded(_ name: String, to size: Int) throws -> [UInt8] {
        let unpadded = try body(name) { set(content + ["body"], "", in: &$0) }
        return try body(name) { set(content + ["body"], String(repeating: "p", count: size - unpadded.count), in: &$0) }
    }

    /// Sets (or with nil removes) the value at `path`, creating objects on the way.
    private static func set(_ path: [String], _ value: Any?, in object: inout [String: Any]) {
        guard let key = path.first else { return }
        if path.count == 1 {
            object[key] = value
            return
        }
        var child = object[key] as? [String: Any] ?? [:]
        set(Array(path.dropFirst()), value, in: &child)
        object[key] = child
    }

    /// `depth` arrays inside each other.
    private static func nested(_ depth: Int) -> [UInt8] {
        Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
    }

    /// Reproducible noise (SplitMix64).
    private static func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            withUnsafeBytes(of: z) { bytes.append(contentsOf: $0.prefix(count - bytes.count)) }
        }
        return bytes
    }
}
