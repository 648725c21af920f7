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
