import Foundation

/// The properties a message carries besides its body (AMQP's basic properties, the content header of
/// basic.publish and basic.deliver): one model from delivery to publish, turned into librabbitmq's structs only at
/// the socket.
///
/// A `nil` property is not sent; empty ``headers`` are not sent either. ``timestamp`` travels in whole seconds. The
/// short-string properties carry at most 255 bytes of UTF-8 on the wire: a publish with a longer one is refused
/// (the client's `AMQPError.unpublishable`).
public struct MessageProperties: Sendable, Hashable {
    /// Whether the broker writes a message to disk.
    public enum DeliveryMode: UInt8, Sendable, Hashable {
        /// Kept in memory where the queue allows it (delivery-mode 1).
        case transient = 1
        /// Written to disk by durable queues, so it survives a broker restart (delivery-mode 2).
        case persistent = 2
    }

    /// The MIME type of the body, for example `application/cloudevents+json`.
    public var contentType: String?
    /// The encoding of the body, for example `gzip`.
    public var contentEncoding: String?
    /// Application headers; may nest tables and arrays.
    public var headers: FieldTable
    /// Transient or persistent.
    public var deliveryMode: DeliveryMode?
    /// Priority 0–9 for queues with `x-max-priority`.
    public var priority: UInt8?
    /// Ties a reply or an outcome to the message it answers.
    public var correlationID: String?
    /// Where replies go.
    public var replyTo: String?
    /// Per-message TTL in milliseconds, written as a decimal string.
    public var expiration: String?
    /// The application's identifier for the message.
    public var messageID: String?
    /// When the message was made, in whole seconds since 1970, exactly as the wire carries it (other clients may
    /// send any value up to 2^64 - 1; ``date`` reads it as a `Date`).
    public var timestamp: UInt64?
    /// The application's name for the kind of message.
    public var type: String?
    /// The user that published; RabbitMQ checks it equals the connection's user.
    public var userID: String?
    /// The publishing application.
    public var appID: String?

    /// Properties with the given values; everything left out is not sent. Inlinable, so that a caller's values move
    /// into the properties instead of being copied by a call into this module.
    @inlinable
    public init(
        contentType: String? = nil,
        contentEncoding: String? = nil,
        messageID: String? = nil,
        correlationID: String? = nil,
        type: String? = nil,
        appID: String? = nil,
        timestamp: UInt64? = nil,
        deliveryMode: DeliveryMode? = nil,
        headers: FieldTable = [:],
        priority: UInt8? = nil,
        replyTo: String? = nil,
        expiration: String? = nil,
        userID: String? = nil
    ) {
        self.contentType = contentType
        self.contentEncoding = contentEncoding
        self.headers = headers
        self.deliveryMode = deliveryMode
        self.priority = priority
        self.correlationID = correlationID
        self.replyTo = replyTo
        self.expiration = expiration
        self.messageID = messageID
        self.timestamp = timestamp
        self.type = type
        self.userID = userID
        self.appID = appID
    }
}

extension MessageProperties {
    /// ``timestamp`` as a `Date`; setting it keeps its whole seconds (0 for earlier than 1970).
    public var date: Date? {
        get { timestamp.map { Date(timeIntervalSince1970: TimeInterval($0)) } }
        set { timestamp = newValue.map(Self.timestamp(of:)) }
    }

    /// The ``timestamp`` of `date`: its whole seconds since 1970, 0 before 1970.
    public static func timestamp(of date: Date) -> UInt64 {
        UInt64(clampingSeconds: date)
    }
}

extension UInt64 {
    /// The whole seconds from 1970 to `date`: 0 before 1970, `UInt64.max` beyond what 64 bits hold.
    init(clampingSeconds date: Date) {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        self = seconds.isNaN || seconds <= 0 ? 0 : seconds >= 18_446_744_073_709_551_616 ? .max : UInt64(seconds)
    }
}
