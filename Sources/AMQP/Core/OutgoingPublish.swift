/// A basic.publish waiting for the I/O thread.
struct OutgoingPublish: Sendable {
    var channel: ChannelLink
    var exchange: String
    var routingKey: String
    var mandatory: Bool
    var properties: MessageProperties
    var body: [UInt8]
}
