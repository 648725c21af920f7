import Foundation

/// The headers of CloudEvents' binary content mode over AMQP: each attribute is a header named with the AMQP
/// binding's `cloudEvents_` prefix, or the `cloudEvents:` prefix of its first version, or the `ce-` prefix of the
/// RabbitMQ binding (Knative's brokers); all three are read, outputs use `cloudEvents_`.
///
/// `time` may be a string or, as the AMQP binding allows, an integer count of milliseconds since 1970 (what the
/// official SDKs send; an AMQP 0-9-1 timestamp header, in seconds, arrives as milliseconds too).
///
/// Headers are a producer's bytes like the body: a binary-mode message is read by turning it into the structured
/// event it stands for and decoding that, so both modes obey the same rules and refuse with the same reasons and
/// field paths (a header that is not a string is `id: expected string, found number`; one attribute under two
/// prefixes is `id: duplicate key`).
public enum BinaryModeHeaders {
    /// The prefix the binding names attribute headers with, and the one outputs use.
    public static let prefix = "cloudEvents_"
    /// The prefix of the binding's first version, read on input.
    public static let legacyPrefix = "cloudEvents:"
    /// The prefix of the RabbitMQ binding, read on input.
    public static let rabbitMQPrefix = "ce-"
    /// Every prefix read on input.
    public static let prefixes = [legacyPrefix, prefix, rabbitMQPrefix]
    /// The headers that mark a message as binary mode.
    public static let specVersionHeaders = prefixes.map { $0 + "specversion" }

    /// The attribute a header carries, or `nil` when the header is not an attribute header.
    public static func attribute(ofHeader name: String) -> String? {
        for prefix in prefixes where name.hasPrefix(prefix) {
            return String(name.dropFirst(prefix.count))
        }
        return nil
    }

    /// The attribute headers of an event in binary mode: every attribute but `datacontenttype` (the content-type
    /// property) and `data` (the body), with `time` in RFC 3339.
    public static func headers<Payload>(of event: CloudEvent<Payload>) -> [String: JSONValue] {
        var attributes = [
            "specversion": event.specversion, "id": event.id, "source": event.source, "type": event.type,
        ]
        attributes["time"] = event.time.map(InternetDate.format)
        attributes["subject"] = event.subject
        return Dictionary(uniqueKeysWithValues: attributes.map { (prefix + $0.key, JSONValue.string($0.value)) })
    }

    /// The structured-mode document a binary-mode message stands for: its attribute headers (in the order of their
    /// names) as members, then `datacontenttype` from `contentType` when there is one, then the body as `data`.
    ///
    /// The body must be contract JSON one level shallower than ``EventCodec/maximumNestingDepth``, since it nests
    /// inside the event as structured mode's `data` does; errors in it name their byte offsets within the body.
    static func structuredDocument(
        headers: [String: JSONValue], contentType: String?, body: [UInt8]
    ) throws(EventDecodingError) -> [UInt8] {
        _ = try StrictJSONParser.parse(body, maximumDepth: EventCodec.maximumNestingDepth - 1)
        var document: [UInt8] = [UInt8(ascii: "{")]
        func append(_ key: String, _ value: [UInt8]) {
            document += EventCodec.encode(key)
            document.append(UInt8(ascii: ":"))
            document += value
            document.append(UInt8(ascii: ","))
        }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            guard let attribute = attribute(ofHeader: name) else { continue }
            append(attribute, EventCodec.encode(attribute == "time" ? time(value) : value))
        }
        if let contentType { append("datacontenttype", EventCodec.encode(contentType)) }
        append("data", body)
        document[document.count - 1] = UInt8(ascii: "}")
        return document
    }

    /// The milliseconds of RFC 3339's years 0001 to 9999.
    private static let representableMilliseconds: ClosedRange<Int64> = -62_135_596_800_000...253_402_300_799_999

    /// A `time` of milliseconds as its RFC 3339 text; anything else as it is, for the decoder to judge.
    private static func time(_ value: JSONValue) -> JSONValue {
        guard case .integer(let milliseconds) = value, representableMilliseconds.contains(milliseconds) else { return value }
        return .string(InternetDate.format(Date(timeIntervalSince1970: Double(milliseconds) / 1_000)))
    }
}
