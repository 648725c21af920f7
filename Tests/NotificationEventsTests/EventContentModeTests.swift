import NotificationEvents
import Testing

/// The content mode of a message, told apart as the CloudEvents AMQP binding says.
@Suite struct EventContentModeTests {
    @Test(arguments: [
        ("application/cloudevents+json", ["cloudEvents_specversion": JSONValue.string("1.0")], EventContentMode.structured),
        ("Application/CloudEvents+JSON; charset=utf-8", ["ce-specversion": .string("1.0")], .structured),
        (" \tapplication/cloudevents+json", ["ce-specversion": .string("1.0")], .structured),
        ("application/json", ["cloudEvents_specversion": .string("1.0")], .binary),
        ("application/json", ["cloudEvents:specversion": .integer(1)], .binary),
        ("application/json", ["ce-specversion": .null], .binary),
        ("application/json", ["cloudEvents_id": .string("e1")], .structured),
        ("application/json", [:], .structured),
        ("application/cloud", ["ce-specversion": .string("1.0")], .binary),
    ])
    func theModeFollowsTheContentTypeThenTheSpecVersionHeader(
        contentType: String, headers: [String: JSONValue], mode: EventContentMode
    ) {
        #expect(EventContentMode.of(contentType: contentType, headers: headers) == mode)
    }

    /// Only ASCII spells `application/cloudevents`: no other character lowercases to one of its letters, and a
    /// character joined to its last letter (a combining mark, a zero-width joiner) makes that letter another
    /// character. A character of its own after the prefix is the format's business, not the mode's.
    @Test(arguments: [
        ("application/cloudevents\u{301}+json", EventContentMode.binary),
        ("APPLICATION/CLOUDEVENTS\u{301}", .binary),
        ("application/cloudevents\u{200D}+json", .binary),
        ("appl\u{130}cation/cloudevents+json", .binary),
        ("applicat\u{131}on/cloudevents+json", .binary),
        ("\u{A0}application/cloudevents+json", .binary),
        ("application/cloudevents\u{E9}+json", .structured),
        ("application/cloudevents\u{212A}", .structured),
    ])
    func onlyASCIISpellsTheStructuredPrefix(contentType: String, mode: EventContentMode) {
        #expect(EventContentMode.of(contentType: contentType, headers: ["ce-specversion": .string("1.0")]) == mode)
    }

    @Test func withoutAContentTypeTheSpecVersionHeaderDecides() {
        #expect(EventContentMode.of(contentType: nil, headers: ["cloudEvents_specversion": .string("1.0")]) == .binary)
        #expect(EventContentMode.of(contentType: nil, headers: [:]) == .structured)
    }

    @Test func attributeHeadersAreReadUnderEveryPrefixOfTheBindings() {
        #expect(BinaryModeHeaders.attribute(ofHeader: "cloudEvents_id") == "id")
        #expect(BinaryModeHeaders.attribute(ofHeader: "cloudEvents:time") == "time")
        #expect(BinaryModeHeaders.attribute(ofHeader: "ce-subject") == "subject")
        #expect(BinaryModeHeaders.attribute(ofHeader: "cloudevents_id") == nil)
        #expect(BinaryModeHeaders.attribute(ofHeader: "traceparent") == nil)
    }
}
