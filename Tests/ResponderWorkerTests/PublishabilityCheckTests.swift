import AMQP
import NotificationEvents
import Responder
import ResponderWorker
import Testing

/// The pipeline's check before a commit holds for any broker: it takes the smallest frame AMQP lets a broker
/// negotiate, so an output it passes can never be refused after its state was committed, whatever frame size the
/// connection ends up with. (The pipeline's own outputs pass it: every replay of a golden fixture goes through it.)
@Suite struct PublishabilityCheckTests {
    /// Properties that fit the 128 KiB frame the worker proposes but not the 4 KiB a broker may negotiate.
    private let output = OutboundMessage(
        exchange: "notifications.action-updates", routingKey: "red-category", body: [],
        properties: MessageProperties(headers: ["padding": .string(String(repeating: "x", count: 5_000))]))

    @Test func anOutputThatOnlyALargeFrameHoldsIsRefusedBeforeTheCommit() throws {
        let proposed = PublishLimits(frameMax: 131_072)
        #expect(proposed.problem(output) == nil)
        var configuration = PipelineConfiguration()
        configuration.checkPublishability(against: proposed)
        let check = try #require(configuration.publishability)
        #expect(check(output)?.contains("a frame of 4096") == true, "\(check(output) ?? "no problem")")
    }
}
