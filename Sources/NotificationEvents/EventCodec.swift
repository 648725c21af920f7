import Foundation

/// Encodes and decodes the events of the contract: strict on what is required, tolerant of unknown fields,
/// and stable in what it writes (sorted keys), so golden files diff cleanly.
public enum EventCodec {
    /// Decodes an input event, refusing anything that is not a CloudEvents 1.0 `notification.response.v1`.
    public static func decodeResponseEvent(_ body: some DataProtocol) throws(EventDecodingError) -> NotificationResponseEvent {
        let data = Data(body)
        let envelope: Envelope
        do {
            envelope = try decoder.decode(Envelope.self, from: data)
        } catch {
            throw mapped(error)
        }
        guard envelope.specversion == NotificationResponseEvent.specVersion else {
            throw .unknownSpecVersion(envelope.specversion)
        }
        guard envelope.type == EventType.notificationResponse else { throw .unknownType(envelope.type) }
        do {
            return try decoder.decode(NotificationResponseEvent.self, from: data)
        } catch {
            throw mapped(error)
        }
    }

    /// The bytes of `value` as stable JSON: sorted keys, no escaped slashes, ISO 8601 dates.
    public static func encode(_ value: some Encodable) -> [UInt8] {
        // Every type of the contract encodes without failing: a failure here is a programming error.
        // swiftlint:disable:next force_try
        Array(try! encoder.encode(value))
    }

    /// The decoder the contract uses (ISO 8601 dates, with or without fractional seconds).
    public static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = InternetDate.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "expected an RFC 3339 date-time, found \"\(text)\"")
            }
            return date
        }
        return decoder
    }

    /// The encoder the contract uses: sorted keys and ISO 8601 dates, so the same value gives the same bytes.
    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(InternetDate.format(date))
        }
        return encoder
    }

    private struct Envelope: Decodable {
        var specversion: String
        var type: String
    }

    private static func mapped(_ error: any Error) -> EventDecodingError {
        guard let error = error as? DecodingError else { return .malformedJSON(String(describing: error)) }
        switch error {
        case .keyNotFound(let key, let context):
            return .invalidField(path: path(context.codingPath + [key]), problem: "missing")
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return .invalidField(path: path(context.codingPath), problem: context.debugDescription)
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return .malformedJSON(context.underlyingError.map { String(describing: $0) } ?? context.debugDescription)
        case .dataCorrupted(let context):
            return .invalidField(path: path(context.codingPath), problem: context.debugDescription)
        @unknown default:
            return .malformedJSON(String(describing: error))
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
}
