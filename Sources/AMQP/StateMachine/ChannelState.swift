/// Everything the ``ConnectionStateMachine`` knows about one open channel. Touched by the I/O thread only.
final class ChannelState {
    /// A synchronous method sent or waiting to be sent; only the first in ``ChannelState/calls`` is on the wire.
    struct Call {
        let method: ChannelMethod
        let reply: Reply<MethodReply>
    }

    let link: ChannelLink
    /// Synchronous methods in order: one at a time on the wire, the next sent when the first is answered.
    var calls: [Call] = []
    /// Pending publisher confirms; `nil` until confirm.select was sent.
    var confirms: ConfirmTracker?
    /// Where each consumer's deliveries go, by consumer tag.
    var consumers: [String: ConsumerFeed] = [:]
    /// The message whose content frames are being read.
    var incoming: IncomingMessage?
    /// A basic.return whose publish the next basic.ack or basic.nack names.
    var returned: AMQPError?
    /// channel.close was sent: nothing new may start.
    var isClosing = false

    init(link: ChannelLink) {
        self.link = link
    }

    var id: UInt16 { link.id }

    /// Ends everything on the channel with `error`: calls, publishes awaiting confirms, consumers.
    func fail(_ error: AMQPError) {
        link.markClosed(error)
        let calls = self.calls
        self.calls = []
        for call in calls {
            call.fail(error)
        }
        confirms?.failAll(error)
        // Unacknowledged deliveries of a closed channel are back in their queues already.
        for feed in consumers.values {
            _ = feed.finish(throwing: error)
        }
        consumers = [:]
        incoming = nil
    }
}

extension ChannelState.Call {
    func fail(_ error: AMQPError) {
        if case .consume(_, _, _, _, let deliveries) = method {
            deliveries.finish()
        }
        reply(.failure(error))
    }
}
