import Foundation
import NotificationEvents
import Testing

@Suite struct DeadLetterInfoTests {
    /// The pipeline defines the same codes independently: these strings are the contract.
    @Test func reasonCodesAreExactlyTheContractsCodes() {
        #expect(DeadLetterReason.allCases.map(\.rawValue) == [
            "malformed-json", "invalid-field", "unknown-type", "unknown-specversion", "unsupported-content-type",
            "body-too-large", "handler-failed", "retries-exhausted", "unpublishable", "delivery-limit-exceeded",
            "event-id-reused", "handler-timeout", "category-changed",
        ])
    }

    @Test func headerNamesAreExactlyTheContractsNames() {
        #expect(DeadLetterInfo.Header.allCases.map(\.rawValue) == [
            "x-responder-reason", "x-responder-detail", "x-responder-original-exchange",
            "x-responder-original-routing-key", "x-responder-attempts", "x-responder-first-failure",
            "x-responder-last-failure", "x-responder-worker",
        ])
    }

    @Test func headersCarryEveryFieldInTheSchemasTypes() {
        let headers = Samples.deadLetter().headers
        #expect(headers == [
            "x-responder-reason": .string("invalid-field"),
            "x-responder-detail": .string("data.notification.request.identifier: missing"),
            "x-responder-original-exchange": .string("notifications"),
            "x-responder-original-routing-key": .string("notification.response"),
            "x-responder-attempts": .integer(3),
            "x-responder-first-failure": .string("2026-11-20T09:00:05.125Z"),
            "x-responder-last-failure": .string("2026-11-20T09:01:10Z"),
            "x-responder-worker": .string("responder-7f9c"),
        ])
    }

    @Test func readingHeadersIgnoresOtherHeaders() throws {
        var headers = Samples.deadLetter().headers
        headers["x-death"] = .array([.object(["count": .integer(1)])])
        headers["x-first-death-reason"] = .string("rejected")
        #expect(try DeadLetterInfo(headers: headers) == Samples.deadLetter())
    }

    @Test func readingHeadersRefusesMissingOrWrongOnes() {
        var headers = Samples.deadLetter().headers
        headers["x-responder-attempts"] = .string("3")
        headers["x-responder-worker"] = nil
        #expect(throws: EventDecodingError.invalidField(path: "x-responder-attempts", problem: "expected integer, found string")) {
            try DeadLetterInfo(headers: headers)
        }
        headers["x-responder-attempts"] = .integer(3)
        #expect(throws: EventDecodingError.invalidField(path: "x-responder-worker", problem: "missing")) {
            try DeadLetterInfo(headers: headers)
        }
    }

    @Test func aDecodingErrorBecomesReasonAndDetail() throws {
        let error = try #require(StrictDecodingTests.decodeEvent(#"{"specversion":"1.0","type":"order.created.v1"}"#))
        var info = Samples.deadLetter()
        info.reason = error.deadLetterReason
        info.detail = error.description
        #expect(info.headers["x-responder-reason"] == .string("unknown-type"))
        #expect(info.headers["x-responder-detail"] == .string(#"unknown event type "order.created.v1""#))
    }
}
