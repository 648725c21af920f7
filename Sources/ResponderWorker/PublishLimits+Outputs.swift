import AMQP
import Responder
import ResponderIntake

extension PipelineConfiguration {
    /// Has the pipeline check every output against `limits` before it commits
    /// (`PipelineConfiguration.publishability`), as the worker and replay do: an event whose output AMQP would refuse
    /// is dead-lettered with nothing stored. The check takes the smallest frame a broker may negotiate
    /// (`PublishLimits.atSmallestFrame`): it runs before a connection's frame size is known, and an output it
    /// passed must never be refused after its commit. The pipeline's own properties are far below that frame.
    public mutating func checkPublishability(against limits: PublishLimits) {
        let limits = limits.atSmallestFrame
        publishability = { limits.problem($0) }
    }
}
