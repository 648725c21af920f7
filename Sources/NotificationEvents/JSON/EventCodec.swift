import Foundation

/// Encodes and decodes the documents of the contract (Schemas/): strict on what is required, tolerant of unknown
/// fields, and stable in what it writes (sorted keys), so golden files diff cleanly.
///
/// The `decode…` functions parse with the contract's JSON rules (UTF-8, no duplicate keys, no `NaN`, finite
/// numbers, at most ``maximumNestingDepth`` levels) and refuse with an ``EventDecodingError`` that says where and
/// what, e.g. `data.notification.request.content.badge: expected integer, found string`, without any value.
///
/// ## Why a hand-written codec
///
/// Strictness Foundation lacks. Every input byte comes from outside, and the contract (Schemas/) has rules that
/// `JSONDecoder` does not hold: it keeps one of two duplicate keys silently, has no nesting limit of the
/// contract's, reads numbers by Foundation's rules, and words its errors with the values it met, which may be a
/// user's typed text. `StrictJSONParser` holds the contract's JSON rules and `ContractDecoder` the per-field ones,
/// with errors that name the field and never its value; the agreement corpus (NotificationEventsTests) holds them
/// to the schemas' Python validator, document by document.
///
/// Speed. A profile of `responder replay` put a third of its time in `JSONValue.init(from:)` under Foundation's
/// decoder, and most of the rest in building dictionaries, strings and coding paths, in `JSONEncoder` and in date
/// formatting. The parser builds a flat tape (`JSONTape`: one node per value, no strings or dictionaries) and the
/// decoder reads the contract's types from it directly. Measured with `responder-bench` under callgrind on the
/// 1,000-line RedGreen mix: decoding a response event went from about 396,000 instructions to 63,382, and a
/// processed event from 660,040 to 170,475 in all. A valid input event is now read from the tape directly, without
/// `Decodable` (`NotificationResponseJSON.swift`), which halved its decoding again (51,990 to 25,500 instructions,
/// Benchmarks/PROFILE.md); the figures below were measured before that and before the output's direct writer.
///
/// The encoder (`ContractEncoder`) writes byte for byte what `JSONEncoder` writes with ``encoder``'s settings
/// (FoundationParityTests hold it to that), so it stays only while it pays. Measured on 2026-11-24 with
/// `responder-bench` built twice from the same tree, once with `encode(_:)` on `JSONEncoder` instead, on a
/// 4,000-event `scripts/make-fixtures --events` mix, runs alternating on a shared 2-core machine:
///
/// | | contract encoder | Foundation's `JSONEncoder` |
/// | --- | --- | --- |
/// | `process` (the worker's pipeline), CPU per event, 12 runs each | 23.9 to 30.6 µs, median 25.3 | 31.8 to 36.4 µs, median 32.9 |
/// | `process`, instructions per event (callgrind, 1,000-event mix) | 133,226 | 151,596 |
/// | `replay`, CPU per event, 6 runs each | 46.6 to 52.2 µs | 64.5 to 69.4 µs |
/// | `replay`, instructions per event (callgrind) | 261,899 | 344,146 |
public enum EventCodec {
    /// The deepest nesting of arrays and objects a document may have; the top-level object is level 1.
    public static let maximumNestingDepth = 64

    /// Decodes an input event, refusing anything that is not a CloudEvents 1.0 `notification.response.v1`.
    ///
    /// `specversion` and `type` are checked before the data, so an unknown event is refused as such whatever its
    /// data holds. A `subject` must equal the request identifier.
    ///
    /// A valid event is read directly (`NotificationResponseJSON.swift`); anything that reader does not accept is
    /// judged by the strict decoder, so refusals and their field paths are the strict decoder's.
    public static func decodeResponseEvent(_ body: some DataProtocol) throws(EventDecodingError) -> NotificationResponseEvent {
        let tape = try StrictJSONParser.parse(Array(body))
        if let event = directlyReadResponseEvent(tape) { return event }
        return try strictlyDecodedResponseEvent(tape)
    }

    /// ``decodeResponseEvent(_:)`` by the strict decoder alone, which the direct reader must agree with: for the
    /// tests and the fuzzer that compare the two.
    package static func decodeResponseEventStrictly(_ body: some DataProtocol) throws(EventDecodingError) -> NotificationResponseEvent {
        try strictlyDecodedResponseEvent(StrictJSONParser.parse(Array(body)))
    }

    /// ``decodeResponseEvent(headers:contentType:body:)`` by the strict decoder alone, for the same comparisons.
    package static func decodeResponseEventStrictly(
        headers: [String: JSONValue], contentType: String?, body: some DataProtocol
    ) throws(EventDecodingError) -> NotificationResponseEvent {
        try decodeResponseEventStrictly(BinaryModeHeaders.structuredDocument(headers: headers, contentType: contentType, body: Array(body)))
    }

    private static func strictlyDecodedResponseEvent(_ tape: JSONTape) throws(EventDecodingError) -> NotificationResponseEvent {
        let event: NotificationResponseEvent = try decodeEvent(tape, type: EventType.notificationResponse)
        try requireSubject(event.subject, equalTo: event.data.notification.request.identifier,
                           named: "data.notification.request.identifier")
        return event
    }

    /// Decodes an input event sent in binary content mode (``BinaryModeHeaders``): `headers` are the message's
    /// headers, `contentType` its content-type property (the event's `datacontenttype`) and `body` its `data`. It
    /// obeys the rules of ``decodeResponseEvent(_:)`` and refuses with the same errors and field paths.
    public static func decodeResponseEvent(
        headers: [String: JSONValue], contentType: String?, body: some DataProtocol
    ) throws(EventDecodingError) -> NotificationResponseEvent {
        try decodeResponseEvent(BinaryModeHeaders.structuredDocument(headers: headers, contentType: contentType, body: Array(body)))
    }

    /// Decodes a lifecycle event (`notification.lifecycle.v1`): a producer's report that a notification request
    /// was removed or replaced. A `subject` must equal the request identifier.
    public static func decodeLifecycleEvent(_ body: some DataProtocol) throws(EventDecodingError) -> NotificationLifecycleEvent {
        let event: NotificationLifecycleEvent = try decodeEvent(
            StrictJSONParser.parse(Array(body)), type: EventType.notificationLifecycle)
        try requireSubject(event.subject, equalTo: event.data.requestIdentifier, named: "data.requestIdentifier")
        return event
    }

    /// Decodes a lifecycle event sent in binary content mode (``BinaryModeHeaders``), by the rules of
    /// ``decodeLifecycleEvent(_:)`` and with the errors of ``decodeResponseEvent(headers:contentType:body:)``.
    public static func decodeLifecycleEvent(
        headers: [String: JSONValue], contentType: String?, body: some DataProtocol
    ) throws(EventDecodingError) -> NotificationLifecycleEvent {
        try decodeLifecycleEvent(BinaryModeHeaders.structuredDocument(headers: headers, contentType: contentType, body: Array(body)))
    }

    /// Decodes an output event (`notification.actions.updated.v1`), for tests and consumers of the output.
    ///
    /// Beyond its schema, its `id` must be ``CloudEvent/id(causedBy:)`` of its causation id and a `subject` must
    /// equal the request identifier.
    public static func decodeActionSetUpdateEvent(_ body: some DataProtocol) throws(EventDecodingError) -> ActionSetUpdateEvent {
        let event: ActionSetUpdateEvent = try decodeEvent(StrictJSONParser.parse(Array(body)), type: EventType.actionSetUpdated)
        try requireSubject(event.subject, equalTo: event.data.requestIdentifier, named: "data.requestIdentifier")
        try requireDerivedID(event.id, ActionSetUpdateEvent.id(causedBy: event.data.causationId))
        return event
    }

    /// Decodes an output event published in binary content mode, by the rules of ``decodeActionSetUpdateEvent(_:)``.
    public static func decodeActionSetUpdateEvent(
        headers: [String: JSONValue], contentType: String?, body: some DataProtocol
    ) throws(EventDecodingError) -> ActionSetUpdateEvent {
        try decodeActionSetUpdateEvent(
            BinaryModeHeaders.structuredDocument(headers: headers, contentType: contentType, body: Array(body)))
    }

    /// Decodes a device command of `kind` (a dismissal, `notification.dismissed.v1`, or a removal,
    /// `notification.removed.v1`: ``DeviceCommandKinds``), for consumers of the output.
    ///
    /// Beyond its schema, its `type` must be the kind's, its `id` ``CloudEvent/commandID(causedBy:)`` of its
    /// causation id, and a `subject` must equal the request identifier.
    public static func decodeDeviceCommandEvent<Kind: DeviceCommandKind>(
        _ body: some DataProtocol, as kind: Kind.Type
    ) throws(EventDecodingError) -> CloudEvent<DeviceCommand<Kind>> {
        let event: CloudEvent<DeviceCommand<Kind>> = try decodeEvent(StrictJSONParser.parse(Array(body)), type: Kind.eventType)
        try requireSubject(event.subject, equalTo: event.data.requestIdentifier, named: "data.requestIdentifier")
        try requireDerivedID(event.id, CloudEvent<DeviceCommand<Kind>>.commandID(causedBy: event.data.causationId))
        return event
    }

    /// Decodes a device command of `kind` published in binary content mode, by the rules of
    /// ``decodeDeviceCommandEvent(_:as:)``.
    public static func decodeDeviceCommandEvent<Kind: DeviceCommandKind>(
        headers: [String: JSONValue], contentType: String?, body: some DataProtocol, as kind: Kind.Type
    ) throws(EventDecodingError) -> CloudEvent<DeviceCommand<Kind>> {
        try decodeDeviceCommandEvent(
            BinaryModeHeaders.structuredDocument(headers: headers, contentType: contentType, body: Array(body)), as: kind)
    }

    /// Decodes a categories file; category identifiers, and action identifiers within a category, must be unique.
    public static func decodeCategories(_ body: some DataProtocol) throws(EventDecodingError) -> NotificationCategories {
        try decode(NotificationCategories.self, from: body)
    }

    /// Decodes the dead-letter headers of a message, written as one JSON object keyed by header name.
    public static func decodeDeadLetterInfo(_ body: some DataProtocol) throws(EventDecodingError) -> DeadLetterInfo {
        try decode(DeadLetterInfo.self, from: body)
    }

    /// Decodes any type of the contract (or ``JSONValue``) with the contract's JSON rules and error style.
    public static func decode<Value: Decodable>(
        _ type: Value.Type, from body: some DataProtocol
    ) throws(EventDecodingError) -> Value {
        try decode(type, from: StrictJSONParser.parse(Array(body)))
    }

    /// Decodes a value that ``encode(_:)`` wrote and that was stored, such as a handler's state: by the
    /// contract's JSON rules, except that values may nest as deep as ``encode(_:)`` writes them (511 levels).
    /// Like Foundation's decoder it reads `Data` from base64, `URL` from its string and `Decimal` from a number.
    public static func decodeStored<Value: Decodable>(
        _ type: Value.Type, from bytes: some DataProtocol
    ) throws(EventDecodingError) -> Value {
        try decode(type, from: StrictJSONParser.parse(Array(bytes), maximumDepth: JSONText.maximumDepth))
    }

    /// The bytes of `value` as stable JSON: sorted keys, no escaped slashes, RFC 3339 dates.
    ///
    /// Every value of the contract's types encodes, except a `Double` that is NaN or infinite, which no JSON
    /// can carry: building such a value is a programming error, and this traps on it.
    public static func encode<Value: Encodable>(_ value: Value) -> [UInt8] {
        do {
            if let bytes = directlyWritten(value) { return bytes }
            return try ContractEncoder.encode(value)
        } catch {
            preconditionFailure("a contract value did not encode: \(error)")
        }
    }

    /// A Foundation decoder for the contract's types (RFC 3339 dates as the contract writes them), for the tests
    /// that show a consumer on Foundation reads what ``encode(_:)`` writes. It reads Foundation's JSON, not the
    /// contract's stricter rules; the `decode…` functions are the one public way in.
    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            guard let date = InternetDate.parse(try container.decode(String.self)) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected RFC 3339 date-time")
            }
            return date
        }
        return decoder
    }

    /// A Foundation encoder with the contract's settings: sorted keys, no escaped slashes, RFC 3339 dates.
    /// ``encode(_:)`` writes the same bytes, faster.
    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(InternetDate.format(date))
        }
        return encoder
    }

    package static func decode<Value: Decodable>(_ type: Value.Type, from tape: JSONTape) throws(EventDecodingError) -> Value {
        try contractErrors { try ContractDecoder.decode(type, from: tape, at: 0) }
    }

    /// The value `read` decodes, its errors in the contract's form.
    private static func contractErrors<Value>(_ read: () throws -> Value) throws(EventDecodingError) -> Value {
        do {
            return try read()
        } catch let error as DecodingError {
            throw invalidField(error)
        } catch {
            throw .invalidField(path: FieldPath.root, problem: "unreadable")
        }
    }

    private struct Envelope: Decodable {
        var specversion: String
        var type: String
    }

    private static func decodeEvent<Payload: Sendable & Hashable & Codable>(
        _ tape: JSONTape, type expectedType: String
    ) throws(EventDecodingError) -> CloudEvent<Payload> {
        let envelope = try decode(Envelope.self, from: tape)
        guard sameScalars(envelope.specversion, CloudEvent<Payload>.specVersion) else {
            throw .unknownSpecVersion(envelope.specversion)
        }
        guard sameScalars(envelope.type, expectedType) else { throw .unknownType(envelope.type) }
        return try decode(CloudEvent<Payload>.self, from: tape)
    }

    /// Compares as JSON Schema's `const` does: scalar by scalar, not by Swift's canonical equivalence.
    private static func sameScalars(_ text: String, _ expected: String) -> Bool {
        text.unicodeScalars.elementsEqual(expected.unicodeScalars)
    }

    /// JSON Schema cannot compare two fields, so this rule is the decoder's alone; the schemas document it.
    private static func requireSubject(
        _ subject: String?, equalTo identifier: String, named identifierPath: String
    ) throws(EventDecodingError) {
        guard let subject, subject != identifier else { return }
        throw .invalidField(path: "subject", problem: "must equal \(identifierPath)")
    }

    /// An output's id derives from its cause alone; JSON Schema cannot compare fields, so the schemas only describe it.
    private static func requireDerivedID(_ id: String, _ derived: String) throws(EventDecodingError) {
        guard id == derived else { throw .invalidField(path: "id", problem: "must be derived from data.causationId") }
    }

    private static func invalidField(_ error: DecodingError) -> EventDecodingError {
        switch error {
        case .keyNotFound(let key, let context):
            return .invalidField(path: FieldPath.render(context.codingPath + [key]), problem: "missing")
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return .invalidField(path: FieldPath.render(context.codingPath), problem: context.debugDescription)
        @unknown default:
            return .invalidField(path: FieldPath.root, problem: "unreadable")
        }
    }
}
