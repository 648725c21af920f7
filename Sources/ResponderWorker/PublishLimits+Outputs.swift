import AMQP
import Responder
import ResponderIntake

extension PublishLimits {
    /// Why `output` cannot be published under these limits, or nil when it can: what a pipeline whose outputs go
    /// out over AMQP checks before it commits (`PipelineConfiguration.publishability`).
    public func problem(_ output: OutboundMessage) -> String? {
        problem(Publication(output))
    }
}
