import NotificationEvents
import Testing

@Suite struct EventContentTypeTests {
    @Test(arguments: [
        "application/cloudevents+json", "application/json", "Application/JSON", "application/json; charset=utf-8",
        "application/cloudevents+json;charset=\"UTF-8\"", " application/json ; version=1",
    ])
    func acceptsBothJSONTypesWithParameters(contentType: String) {
        #expect(EventContentType.isAccepted(contentType))
    }

    @Test(arguments: [
        "text/plain", "application/xml", "application/json; charset=latin-1", "application/jsonx", "", "application/json;",
        "application/cloudevents-batch+json",
    ])
    func refusesOtherTypesAndCharsets(contentType: String) {
        #expect(!EventContentType.isAccepted(contentType))
    }

    @Test func readsAMessageWithoutContentTypeAsJSON() {
        #expect(EventContentType.isAccepted(nil))
    }
}
