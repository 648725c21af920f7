import Foundation
import Logging
import NotificationEvents
import PipelineHarness
import Responder
import Testing

/// What the pipeline refuses before any handler runs, and why.
@Suite struct InputCheckTests {
    let handler = TestExtension(actionSets: { _ in [[Fixtures.like]] })
    let event = Events.response(id: "e1")

    private func pipeline(_ configuration: PipelineConfiguration = PipelineConfiguration()) throws -> ResponsePipeline {
        ResponsePipeline(
            registry: try Fixtures.registry(extension: handler), store: InMemoryStateStore(),
            configuration: configuration, logger: .quiet)
    }

    @Test(arguments: [
        "application/cloudevents+json", "application/json", "application/json; charset=utf-8",
        "Application/CloudEvents+JSON", "", " \t",
    ])
    func acceptedContentTypes(contentType: String) async throws {
        let outcome = try await pipeline().process(Events.message(event, contentType: contentType))
        #expect(outcome.disposition == .updated)
    }

    @Test func aMessageWithoutAContentTypeIsReadAsJSON() async throws {
        let outcome = try await pipeline().process(Events.message(event, contentType: nil))
        #expect(outcome.disposition == .updated)
    }

    /// Only spaces and tabs make a content type blank (read like a missing one): a no-break space is a content type.
    @Test(arguments: ["text/plain", "application/xml", "application/cloudevents-batch+json", "\u{A0}"])
    func otherContentTypesAreDeadLettered(contentType: String) async throws {
        let outcome = try await pipeline().process(Events.message(event, contentType: contentType))
        #expect(outcome.deadLetterReason == .unsupportedContentType)
        #expect(handler.journal.entries.isEmpty)
    }

    @Test(arguments: ["", "identity", "UTF-8", "utf8"])
    func encodingsOfTheJSONTextItselfAreAccepted(contentEncoding: String) async throws {
        let message = Events.message(body: EventCodec.encode(event), contentEncoding: contentEncoding)
        #expect(try await pipeline().process(message).disposition == .updated)
    }

    @Test func aCompressedBodyIsDeadLettered() async throws {
        let message = Events.message(body: EventCodec.encode(event), contentEncoding: "gzip")
        let outcome = try await pipeline().process(message)
        #expect(outcome.deadLetterReason == .unsupportedContentType)
    }

    @Test func theDefaultSizeLimitIs256KiB() async throws {
        let limit = 256 * 1024
        let padding = limit - Events.body(event) { $0["padding"] = "" }.count
        let atLimit = Events.message(
            body: Events.body(event) { $0["padding"] = String(repeating: "x", count: padding) })
        #expect(atLimit.body.count == limit)
        #expect(try await pipeline().process(atLimit).disposition == .updated)
        let large = Events.message(
            body: Events.body(event) { $0["padding"] = String(repeating: "x", count: padding + 1) })
        guard case .deadLetter(.bodyTooLarge, let detail) = try await pipeline().process(large) else {
            Issue.record("a body over 256 KiB was not dead-lettered as body-too-large")
            return
        }
        #expect(detail == "the body has 262145 bytes, over the limit of 262144")
    }

    @Test func theSizeLimitIsConfigurable() async throws {
        var configuration = PipelineConfiguration()
        configuration.maxBodySize = 100
        let outcome = try await pipeline(configuration).process(Events.message(event))
        #expect(outcome.deadLetterReason == .bodyTooLarge)
    }

    @Test func undecodableBodiesAreDeadLetteredWithTheirReason() async throws {
        let cases: [([UInt8], DeadLetterReason, String)] = [
            (Array("not json".utf8), .malformedJSON, "not valid JSON"),
            (Events.body(event) { $0["type"] = "notification.opened.v1" }, .unknownType, "notification.opened.v1"),
            (Events.body(event) { $0["specversion"] = "0.3" }, .unknownSpecVersion, "0.3"),
            (Events.body(event) { $0["id"] = nil }, .invalidField, "id: missing"),
        ]
        for (body, reason, fragment) in cases {
            guard case .deadLetter(let found, let detail) = try await pipeline().process(Events.message(body: body))
            else {
                Issue.record("not dead-lettered: expected \(reason)")
                continue
            }
            #expect(found == reason)
            #expect(detail.contains(fragment))
        }
        #expect(handler.journal.entries.isEmpty)
    }

    @Test func theReasonCodesAreTheSharedStrings() {
        #expect(
            DeadLetterReason.allCases.map(\.rawValue) == [
                "malformed-json", "invalid-field", "unknown-type", "unknown-specversion", "unsupported-content-type",
                "body-too-large", "handler-failed", "retries-exhausted", "unpublishable", "delivery-limit-exceeded",
                "event-id-reused", "handler-timeout", "category-changed",
            ])
        for error in [
            EventDecodingError.malformedJSON("x"), .invalidField(path: "id", problem: "missing"), .unknownType("t"),
            .unknownSpecVersion("0.3"),
        ] {
            #expect(error.deadLetterReason.rawValue == error.code)
        }
    }
}
