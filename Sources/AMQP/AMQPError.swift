/// Everything that can go wrong in the AMQP client.
///
/// Errors carry the broker's reply code and text when the broker closed something, or librabbitmq's status and its
/// `amqp_error_string2` message. No case ever contains the password: URL errors describe the problem, not the URL.
public enum AMQPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The broker closed the connection (connection.close), for example 320 CONNECTION_FORCED after
    /// `rabbitmqctl close_connection`, 403 ACCESS_REFUSED at login, or 530 NOT_ALLOWED for an unknown virtual host.
    case connectionClosed(replyCode: UInt16, replyText: String)
    /// The broker closed one channel (channel.close), for example 406 PRECONDITION_FAILED when a queue is redeclared
    /// with different arguments, or 404 NOT_FOUND. The connection and its other channels keep working.
    case channelClosed(replyCode: UInt16, replyText: String)
    /// librabbitmq failed: the socket closed or failed, the broker stopped sending heartbeats
    /// (`AMQP_STATUS_HEARTBEAT_TIMEOUT`), the connect timed out, TLS failed. After such an error the connection is gone.
    /// When the socket could not be opened, the message names the cause and the broker's host and port
    /// (`connection refused by 127.0.0.1:5672`, `timed out connecting to …`, `no such host …`).
    case library(status: Int32, message: String)
    /// The broker refused a publish (basic.nack): it was not stored and must be retried or dealt with.
    case nacked
    /// A mandatory publish could not be routed to any queue and came back (basic.return), usually 312 NO_ROUTE.
    case returned(replyCode: UInt16, replyText: String)
    /// ``AMQPConfiguration/init(url:)`` cannot use the URL; the text says why without repeating the URL.
    case invalidURL(String)
    /// This client closed the connection or channel (`close()`), before or while the operation ran.
    case closed
    /// The publish breaks a limit of the protocol, the frame size or the broker's body size
    /// (``PublishLimits``), so it was not written; the text says which, without repeating values. The
    /// connection and channel carry on.
    case unpublishable(String)

    /// Whether the connection is gone: the broker closed it or the library lost it. Reconnecting is the answer;
    /// a channel error, a nack or a return leave the connection usable.
    public var isConnectionError: Bool {
        switch self {
        case .connectionClosed, .library: true
        case .channelClosed, .nacked, .returned, .invalidURL, .closed, .unpublishable: false
        }
    }

    /// A readable sentence with the reply code and text or the library's message.
    public var description: String {
        switch self {
        case .connectionClosed(let code, let text): "connection closed by the broker: \(code) \(text)"
        case .channelClosed(let code, let text): "channel closed by the broker: \(code) \(text)"
        case .library(let status, let message): "librabbitmq error \(status): \(message)"
        case .nacked: "the broker refused the publish (basic.nack)"
        case .returned(let code, let text): "the broker returned the mandatory publish: \(code) \(text)"
        case .invalidURL(let reason): "invalid AMQP URL: \(reason)"
        case .closed: "closed by this client"
        case .unpublishable(let reason): "not published: \(reason)"
        }
    }
}
