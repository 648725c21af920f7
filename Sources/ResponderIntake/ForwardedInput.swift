import AMQP
import Responder

/// An input the worker sends on instead of outputs: to a retry queue or the dead-letter exchange (failure routing),
/// or back to its own queue (a hand-back). The same message as an output: its body and properties are the
/// delivery's, as they arrived, with only the headers failure routing adds.
package typealias ForwardedInput = OutboundMessage

extension PublishLimits {
    /// Why `message` cannot be published under these limits, or nil when it can: what a pipeline whose outputs go
    /// out over AMQP checks before it commits (`PipelineConfiguration.publishability`), and failure routing before
    /// it sends an input on.
    public func problem(_ message: OutboundMessage) -> String? {
        problem(
            exchange: message.exchange, routingKey: message.routingKey, properties: message.properties,
            bodySize: message.body.count)
    }
}
