import Foundation
import NotificationEvents
import Testing

/// Decoding says where and what, refuses what the contract refuses, and never repeats a value.
@Suite struct StrictDecodingTests {
    /// The sample input event as text, for tests that break one thing in it.
    static let event = String(decoding: EventCodec.encode(Samples.response()), as: UTF8.self)

    static func decodeEvent(_ text: String) -> EventDecodingError? {
        do {
            _ = try EventCodec.decodeResponseEvent(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    static func replacing(_ old: String, with new: String) throws -> String {
        try #require(event.contains(old), "the sample has no \(old)")
        return event.replacingOccurrences(of: old, with: new)
    }

    @Test func aMissingFieldIsNamedByItsPath() throws {
        let error = Self.decodeEvent(try Self.replacing(#""identifier":"red-0001","#, with: ""))
        #expect(error == .invalidField(path: "data.notification.request.identifier", problem: "missing"))
        #expect(error?.description == "data.notification.request.identifier: missing")
    }

    @Test func aWrongTypeSaysWhatWasExpectedAndFound() throws {
        let error = Self.decodeEvent(try Self.replacing(#""badge":1"#, with: #""badge":"1""#))
        #expect(error?.description == "data.notification.request.content.badge: expected integer, found string")
    }

    /// A refused value may be a user's typed text: it must not reach logs or dead-letter headers.
    @Test(arguments: [
        (#""badge":1"#, #""badge":"SECRET-REPLY""#),
        (#""title":"Red""#, #""title":["SECRET-REPLY"]"#),
        (#""date":"2026-11-20T09:00:00Z""#, #""date":"SECRET-REPLY""#),
        (#""type":"push""#, #""type":"SECRET-REPLY""#),
        (#""actionIdentifier":"rotate-twenty-degrees-action""#,
         #""actionIdentifier":"com.apple.UNNotificationDismissActionIdentifier","userText":"SECRET-REPLY""#),
        (#""userInfo":{"#, #""userInfo":{"SECRET":"SECRET-REPLY","SECRET":"SECRET-REPLY","#),
        (#""badge":1"#, #""badge":1e999"#),
    ])
    func aRefusalNeverRepeatsTheValue(old: String, new: String) throws {
        let error = try #require(Self.decodeEvent(try Self.replacing(old, with: new)))
        #expect(!error.description.contains("SECRET-REPLY"))
        #expect(!error.description.contains("999"))
    }

    @Test func anUnknownTypeIsRefusedBeforeTheDataIsRead() {
        let error = Self.decodeEvent(#"{"specversion":"1.0","type":"order.created.v1","data":42}"#)
        #expect(error == .unknownType("order.created.v1"))
        #expect(error?.deadLetterReason == .unknownType)
    }

    @Test func anUnknownSpecVersionIsRefusedBeforeTheType() {
        let error = Self.decodeEvent(#"{"specversion":"0.3","type":"order.created.v1"}"#)
        #expect(error == .unknownSpecVersion("0.3"))
        #expect(error?.description == #"unknown specversion "0.3", expected "1.0""#)
    }

    @Test func anOversizedAttributeIsShortenedInTheDescription() {
        let error = Self.decodeEvent(#"{"specversion":"1.0","type":""# + String(repeating: "t", count: 10_000) + #""}"#)
        #expect(error?.description == "unknown event type \"" + String(repeating: "t", count: 64) + "…\"")
    }

    /// Ten thousand levels would overflow a recursive parser's stack; this one stops at the limit.
    static let tenThousandLevels = [
        "arrays": String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000),
        "objects": String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000),
        "both": String(repeating: #"[{"a":"#, count: 5_000) + "1" + String(repeating: "}]", count: 5_000),
        "unclosed": String(repeating: "[", count: 10_000),
        "inside an event": #"{"specversion":"1.0","type":"notification.response.v1","id":"e","source":"s","data":"#
            + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}",
    ]

    @Test(arguments: tenThousandLevels.keys.sorted())
    func nestingTenThousandLevelsDeepIsAnErrorNotACrash(shape: String) throws {
        let document = try #require(Self.tenThousandLevels[shape])
        let error = Self.decodeEvent(document)
        #expect(error?.deadLetterReason == .malformedJSON)
        #expect(error?.description.hasPrefix("not valid JSON: nested deeper than 64 levels (byte ") == true)
        #expect(throws: EventDecodingError.self) { try EventCodec.decode(JSONValue.self, from: Array(document.utf8)) }
    }

    @Test func nestingIsAllowedUpToTheLimit() throws {
        let depth = EventCodec.maximumNestingDepth
        let deepest = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(throws: Never.self) { try EventCodec.decode(JSONValue.self, from: Array(deepest.utf8)) }
        #expect(throws: EventDecodingError.self) { try EventCodec.decode(JSONValue.self, from: Array(("[" + deepest + "]").utf8)) }
    }

    @Test(arguments: [
        ([0x7B, 0x22, 0xC3, 0x28, 0x22, 0x3A, 0x31, 0x7D] as [UInt8], "invalid UTF-8 at byte 2"),
        (Array(#"{"a":NaN}"#.utf8), "NaN and Infinity are not JSON numbers (byte 5)"),
        (Array(#"{"a":Infinity}"#.utf8), "NaN and Infinity are not JSON numbers (byte 5)"),
        (Array(#"{"a":-Infinity}"#.utf8), "NaN and Infinity are not JSON numbers (byte 5)"),
        (Array(#"{"a":1e309}"#.utf8), "number out of range (byte 5)"),
        (Array(#"{"a":"\ud800"}"#.utf8), #"unpaired UTF-16 surrogate in a \u escape (byte 6)"#),
        (Array(#"{"a":"\u+041"}"#.utf8), #"invalid \u escape in a string (byte 6)"#),
        (Array(#"{"a":tru}"#.utf8), "unexpected character at byte 5"),
        (Array(#"{"a":-}"#.utf8), "unexpected character in a number at byte 6"),
        (Array(#"{"a":1.}"#.utf8), "unexpected character in a number at byte 7"),
        (Array("{} {}".utf8), "unexpected data after the JSON value at byte 3"),
        (Array("   ".utf8), "unexpected end of input"),
    ])
    func malformedDocumentsAreRefusedWithReasonAndPlace(document: [UInt8], reason: String) {
        #expect(throws: EventDecodingError.malformedJSON(reason)) { try EventCodec.decode(JSONValue.self, from: document) }
    }

    @Test(arguments: [#"[]"#, #""event""#, "42", "true", "null"])
    func aTopLevelNonObjectIsRefused(document: String) {
        let error = Self.decodeEvent(document)
        #expect(error?.deadLetterReason == .invalidField)
        #expect(error?.description.hasPrefix("(root): expected object, found ") == true)
    }

    /// Decision: a document with a key twice is refused, since readers disagree on which value wins; keys equal
    /// under Unicode canonical equivalence count as the same key, as Swift compares strings that way.
    @Test(arguments: [
        (#"{"a":1,"a":1}"#, "a"), (#"{"x":[{"b":1,"b":2}]}"#, "x[0].b"), (#"{"caf\u00e9":1,"cafe\u0301":2}"#, "cafe\u{301}"),
    ])
    func aDuplicateKeyIsRefusedAtItsPath(document: String, path: String) {
        #expect(throws: EventDecodingError.invalidField(path: path, problem: "duplicate key")) {
            try EventCodec.decode(JSONValue.self, from: Array(document.utf8))
        }
    }

    @Test func distinctKeysThatLookAlikeAreKept() throws {
        let value = try EventCodec.decode(JSONValue.self, from: Array(#"{"a":1,"A":2,"a ":3}"#.utf8))
        #expect(value == .object(["a": .integer(1), "A": .integer(2), "a ": .integer(3)]))
    }

    @Test(arguments: [(#""badge":1.0"#, 1), (#""badge":1e0"#, 1), (#""badge":-0"#, 0), (#""badge":2E+1"#, 20)])
    func integerFieldsAcceptNumbersWithoutAFraction(badge: String, value: Int) throws {
        let event = try EventCodec.decodeResponseEvent(Array(try Self.replacing(#""badge":1"#, with: badge).utf8))
        #expect(event.data.notification.request.content.badge == value)
    }

    @Test func numbersKeepTheirKind() throws {
        let value = try EventCodec.decode(
            JSONValue.self, from: Array(#"[1, 1.0, -0, 12345678901234567890, 1e2, "\ud83d\udd34\u00e9\/"]"#.utf8))
        #expect(value == .array([.integer(1), .number(1), .integer(0), .number(1.2345678901234567e19), .number(100), .string("🔴é/")]))
    }

    @Test func nullInAnOptionalFieldMeansAbsent() throws {
        let text = try Self.replacing(#""subject":"red-0001""#, with: #""subject":null"#)
            .replacingOccurrences(of: #""badge":1"#, with: #""badge":null"#)
        let event = try EventCodec.decodeResponseEvent(Array(text.utf8))
        #expect(event.subject == nil)
        #expect(event.data.notification.request.content.badge == nil)
    }

    // JSON Schema cannot compare two fields: these rules are the decoder's alone, so they stay out of the corpus.

    @Test func anInputSubjectMustEqualTheRequestIdentifier() throws {
        let error = Self.decodeEvent(try Self.replacing(#""subject":"red-0001""#, with: #""subject":"red-0002""#))
        #expect(error == .invalidField(path: "subject", problem: "must equal data.notification.request.identifier"))
        #expect(Self.decodeEvent(try Self.replacing(#""subject":"red-0001","#, with: "")) == nil)
    }

    @Test func anOutputSubjectMustEqualTheRequestIdentifier() {
        var update = Samples.update()
        update.subject = "red-0002"
        #expect(throws: EventDecodingError.invalidField(path: "subject", problem: "must equal data.requestIdentifier")) {
            try EventCodec.decodeActionSetUpdateEvent(EventCodec.encode(update))
        }
    }

    @Test func aLifecycleSubjectMustEqualTheRequestIdentifier() throws {
        var event = Samples.lifecycle()
        event.subject = "red-0002"
        #expect(throws: EventDecodingError.invalidField(path: "subject", problem: "must equal data.requestIdentifier")) {
            try EventCodec.decodeLifecycleEvent(EventCodec.encode(event))
        }
        event.subject = nil
        #expect(try EventCodec.decodeLifecycleEvent(EventCodec.encode(event)) == event)
    }

    @Test func anOutputIdMustBeDerivedFromItsCause() {
        var update = Samples.update()
        update.id = "evt-0003/actions-updated"
        #expect(throws: EventDecodingError.invalidField(path: "id", problem: "must be derived from data.causationId")) {
            try EventCodec.decodeActionSetUpdateEvent(EventCodec.encode(update))
        }
        #expect(ActionSetUpdateEvent.id(causedBy: "evt-0002") == ActionSetUpdateEvent.id(causedBy: "evt-0002"))
        #expect(ActionSetUpdateEvent.id(causedBy: "evt-0002") != ActionSetUpdateEvent.id(causedBy: "evt-0003"))
    }

    @Test func aCommandsSubjectMustEqualTheRequestIdentifier() {
        var dismissal = Samples.command(Dismissal.self)
        dismissal.subject = "red-0002"
        #expect(throws: EventDecodingError.invalidField(path: "subject", problem: "must equal data.requestIdentifier")) {
            try EventCodec.decodeDeviceCommandEvent(EventCodec.encode(dismissal), as: Dismissal.self)
        }
        var removal = Samples.command(Removal.self)
        removal.subject = "red-0002"
        #expect(throws: EventDecodingError.invalidField(path: "subject", problem: "must equal data.requestIdentifier")) {
            try EventCodec.decodeDeviceCommandEvent(EventCodec.encode(removal), as: Removal.self)
        }
    }

    /// One input may cause an update, a dismissal and a removal: each id is its cause's, with a suffix of its own.
    @Test func aCommandsIdMustBeDerivedFromItsCauseAndItsKind() {
        var dismissal = Samples.command(Dismissal.self)
        dismissal.id = NotificationDismissedEvent.commandID(causedBy: "evt-0003")
        #expect(throws: EventDecodingError.invalidField(path: "id", problem: "must be derived from data.causationId")) {
            try EventCodec.decodeDeviceCommandEvent(EventCodec.encode(dismissal), as: Dismissal.self)
        }
        var removal = Samples.command(Removal.self)
        removal.id = NotificationDismissedEvent.commandID(causedBy: "evt-0002")
        #expect(throws: EventDecodingError.invalidField(path: "id", problem: "must be derived from data.causationId")) {
            try EventCodec.decodeDeviceCommandEvent(EventCodec.encode(removal), as: Removal.self)
        }
        let ids = [
            ActionSetUpdateEvent.id(causedBy: "evt-0002"), NotificationDismissedEvent.commandID(causedBy: "evt-0002"),
            NotificationRemovedEvent.commandID(causedBy: "evt-0002"),
        ]
        #expect(ids == ["evt-0002/actions-updated", "evt-0002/dismissed", "evt-0002/removed"])
    }

    @Test func actionIdentifiersInAnUpdateAreUnique() {
        var update = Samples.update()
        update.data.actions.append(NotificationAction(identifier: "reset-rotation-action", title: "Again"))
        #expect(throws: EventDecodingError.invalidField(path: "data.actions[3].identifier", problem: "duplicate action identifier")) {
            try EventCodec.decodeActionSetUpdateEvent(EventCodec.encode(update))
        }
    }

    @Test func actionIdentifiersInACategoryAreUnique() {
        var categories = Samples.categories
        categories.categories[0].actions.insert(Samples.replyAction, at: 0)
        #expect(throws: EventDecodingError.invalidField(
            path: "categories[0].actions[2].identifier", problem: "duplicate action identifier")) {
            try EventCodec.decodeCategories(EventCodec.encode(categories))
        }
    }

    @Test func categoryIdentifiersAreUnique() {
        var categories = Samples.categories
        categories.categories.append(NotificationCategory(identifier: "red-category", actions: []))
        #expect(throws: EventDecodingError.invalidField(path: "categories[2].identifier", problem: "duplicate category identifier")) {
            try EventCodec.decodeCategories(EventCodec.encode(categories))
        }
    }

    @Test func eachErrorMapsToItsDeadLetterReason() {
        let errors: [EventDecodingError] = [
            .malformedJSON("x"), .invalidField(path: "id", problem: "missing"), .unknownType("t"), .unknownSpecVersion("v"),
        ]
        #expect(errors.map(\.deadLetterReason) == [.malformedJSON, .invalidField, .unknownType, .unknownSpecVersion])
        #expect(errors.map(\.code) == ["malformed-json", "invalid-field", "unknown-type", "unknown-specversion"])
    }
}
