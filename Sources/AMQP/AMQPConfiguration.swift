/// Where and how to connect to a broker.
///
/// Build one from a URL (``init(url:)``) and adjust the tuning properties, or set every property by hand.
/// ``description``, ``debugDescription`` and reflection (`dump`) show the password as `***`.
public struct AMQPConfiguration: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The broker's host name or IP address (an IPv6 address without brackets).
    public var host: String
    /// The broker's TCP port.
    public var port: Int
    /// The virtual host to open, `/` by default.
    public var virtualHost: String
    /// The user name for SASL PLAIN.
    public var user: String
    /// The password for SASL PLAIN. Never logged, printed or put in an error.
    public var password: String
    /// The heartbeat interval to propose, rounded up to whole seconds; `.zero` turns heartbeats off, and with them
    /// the detection of a broker that went silent. The broker may lower it. A connection that hears nothing for
    /// two intervals counts as lost.
    public var heartbeat: Duration = .seconds(30)
    /// The largest frame to propose, in bytes (the broker may lower it); bodies are split into frames of this size.
    public var frameMax: Int = 131_072
    /// The largest message body this connection takes whole, in bytes; `nil` for no limit. Set it to the broker's
    /// `max_message_size` or lower. A delivery whose content header announces more arrives without its body
    /// (``AMQPDelivery/isBodyDropped``): the frames are read and discarded, never buffered. A publish of a larger
    /// body is refused with ``AMQPError/unpublishable(_:)`` instead of reaching the broker.
    public var maxBodySize: Int?
    /// What a publish on a connection made with this configuration must fit before login, which may only lower the
    /// frame size.
    public var publishLimits: PublishLimits { PublishLimits(frameMax: frameMax, maxBodySize: maxBodySize) }
    /// How long opening the socket, and separately the AMQP handshake and login, may take.
    public var connectTimeout: Duration = .seconds(10)
    /// Shown by the broker's management tools as the connection's name (client property `connection_name`).
    public var connectionName: String?
    /// TLS settings; `nil` for a plain TCP connection.
    public var tls: TLSConfiguration?

    /// A configuration from its parts; `port` defaults to 5671 with TLS and 5672 without.
    public init(
        host: String = "127.0.0.1",
        port: Int? = nil,
        virtualHost: String = "/",
        user: String = "guest",
        password: String = "guest",
        tls: TLSConfiguration? = nil
    ) {
        self.host = host
        self.port = port ?? (tls == nil ? 5672 : 5671)
        self.virtualHost = virtualHost
        self.user = user
        self.password = password
        self.tls = tls
    }

    /// The URL with the password replaced by `***`, for example `amqp://guest:***@127.0.0.1:5672/%2F`.
    public var description: String {
        let scheme = tls == nil ? "amqp" : "amqps"
        let hostPart = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(AMQPURL.percentEncoded(user)):***@\(hostPart):\(port)/\(AMQPURL.percentEncoded(virtualHost))"
    }

    /// The same as ``description``: the password never appears.
    public var debugDescription: String { description }

    /// Reflection without the password, so `dump` and debuggers do not reveal it.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "host": host, "port": port, "virtualHost": virtualHost, "user": user, "password": "***",
                "heartbeat": heartbeat, "frameMax": frameMax, "connectTimeout": connectTimeout,
                "connectionName": connectionName as Any, "tls": tls as Any,
            ],
            displayStyle: .struct
        )
    }
}
