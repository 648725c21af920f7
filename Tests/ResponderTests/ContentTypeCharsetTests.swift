import NotificationEvents
import PipelineHarness
import Responder
import Testing

/// The pipeline applies the contract's content-type rule (EventContentType) with its charset: JSON in another
/// encoding is refused for its content type, not misread as malformed or, for an ASCII body, handled as UTF-8.
@Suite struct ContentTypeCharsetTests {
    let handler = TestExtension(actionSets: { _ in [[Fixtures.like]] })

    private func outcome(contentType: String) async throws -> ResponseOutcome {
        let pipeline = ResponsePipeline(
            registry: try Fixtures.registry(extension: handler), store: InMemoryStateStore(), logger: .quiet)
        return await pipeline.process(Events.message(Events.response(id: "e1"), contentType: contentType))
    }

    @Test(arguments: ["application/json; charset=latin-1", "application/json; charset=utf-16", "application/json;"])
    func aCharsetOtherThanUTF8IsRefusedForTheContentType(contentType: String) async throws {
        #expect(try await outcome(contentType: contentType).deadLetterReason == .unsupportedContentType)
        #expect(handler.journal.entries.isEmpty)
    }

    @Test(arguments: ["application/cloudevents+json; charset=\"UTF-8\"", " ", "application/json ; version=1"])
    func utf8AndBlankContentTypesAreRead(contentType: String) async throws {
        #expect(try await outcome(contentType: contentType).disposition == .updated)
    }
}
