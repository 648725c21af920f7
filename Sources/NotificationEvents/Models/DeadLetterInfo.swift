import Foundation

/// What a dead-lettered message carries about its failure, as AMQP headers next to its unchanged body
/// (Schemas/dead-letter.v1.schema.json describes the headers as one JSON object keyed by header name).
public struct DeadLetterInfo: Sendable, Hashable, Codable {
    /// The AMQP header names, which are also the JSON keys of the encoded value.
    public enum Header: String, CodingKey, CaseIterable, Sendable {
        case reason = "x-responder-reason"
        case detail = "x-responder-detail"
        case originalExchange = "x-responder-original-exchange"
        case originalRoutingKey = "x-responder-original-routing-key"
        case attempts = "x-responder-attempts"
        case firstFailure = "x-responder-first-failure"
        case lastFailure = "x-responder-last-failure"
        case worker = "x-responder-worker"
    }

    /// Why the message was dead-lettered.
    public var reason: DeadLetterReason
    /// Readable text for whoever fixes the sender or the handler, e.g. an ``EventDecodingError``'s description.
    /// Never a user's typed text; at most ``maximumDetailBytes`` of UTF-8 (``boundedDetail(_:)``).
    public var detail: String
    /// The exchange the message was first published to; empty for the default exchange.
    public var originalExchange: String
    /// The routing key the message was first published with.
    public var originalRoutingKey: String
    /// How many times the worker tried the message; 0 when it was refused before any try.
    public var attempts: Int
    /// When the first try failed; kept to the millisecond.
    public var firstFailure: Date
    /// When the last try failed; kept to the millisecond.
    public var lastFailure: Date
    /// The id of the worker that dead-lettered the message.
    public var worker: String

    /// The failure information of one dead-lettered message.
    public init(
        reason: DeadLetterReason, detail: String, originalExchange: String, originalRoutingKey: String, attempts: Int,
        firstFailure: Date, lastFailure: Date, worker: String
    ) {
        self.reason = reason
        self.detail = Self.boundedDetail(detail)
        self.originalExchange = originalExchange
        self.originalRoutingKey = originalRoutingKey
        self.attempts = attempts
        self.firstFailure = firstFailure
        self.lastFailure = lastFailure
        self.worker = worker
    }

    /// The most UTF-8 bytes a detail keeps, the cut marker included: an error message can quote input, and a
    /// header or log line must not repeat a producer's bytes without bound.
    public static let maximumDetailBytes = 512

    /// What marks a detail that was cut.
    public static let cutMarker = " …[cut]"

    /// `text` if it fits in ``maximumDetailBytes``; else its longest prefix of whole characters that fits with
    /// ``cutMarker``, followed by the marker.
    public static func boundedDetail(_ text: String) -> String {
        guard text.utf8.count > maximumDetailBytes else { return text }
        return text.prefix(utf8Bytes: maximumDetailBytes - cutMarker.utf8.count) + cutMarker
    }

    /// Reads the headers object; attempts must not be negative and the worker id not empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Header.self)
        reason = try container.decode(DeadLetterReason.self, forKey: .reason)
        detail = try container.decode(String.self, forKey: .detail)
        originalExchange = try container.decode(String.self, forKey: .originalExchange)
        originalRoutingKey = try container.decode(String.self, forKey: .originalRoutingKey)
        attempts = try container.decode(Int.self, forKey: .attempts, atLeast: 0)
        firstFailure = try container.decode(Date.self, forKey: .firstFailure)
        lastFailure = try container.decode(Date.self, forKey: .lastFailure)
        worker = try container.decodeNonEmpty(.worker)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Header.self)
        try container.encode(reason, forKey: .reason)
        try container.encode(detail, forKey: .detail)
        try container.encode(originalExchange, forKey: .originalExchange)
        try container.encode(originalRoutingKey, forKey: .originalRoutingKey)
        try container.encode(attempts, forKey: .attempts)
        try container.encode(firstFailure, forKey: .firstFailure)
        try container.encode(lastFailure, forKey: .lastFailure)
        try container.encode(worker, forKey: .worker)
    }

    /// The headers to set on the dead-lettered message: `x-responder-attempts` as an integer, the times as
    /// RFC 3339 strings, everything else as strings.
    public var headers: [String: JSONValue] {
        [
            Header.reason.rawValue: .string(reason.rawValue),
            Header.detail.rawValue: .string(detail),
            Header.originalExchange.rawValue: .string(originalExchange),
            Header.originalRoutingKey.rawValue: .string(originalRoutingKey),
            Header.attempts.rawValue: .integer(Int64(attempts)),
            Header.firstFailure.rawValue: .string(InternetDate.format(firstFailure)),
            Header.lastFailure.rawValue: .string(InternetDate.format(lastFailure)),
            Header.worker.rawValue: .string(worker),
        ]
    }

    /// Reads the failure information from a dead-lettered message's headers; other headers are ignored.
    public init(headers: [String: JSONValue]) throws(EventDecodingError) {
        self = try EventCodec.decode(DeadLetterInfo.self, from: JSONTape(.object(headers)))
    }
}
