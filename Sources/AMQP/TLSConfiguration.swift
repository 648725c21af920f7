/// TLS settings for an `amqps://` connection.
public struct TLSConfiguration: Sendable, Hashable {
    /// Debian's bundle of the system's trusted CA certificates. rabbitmq-c 0.11 does not load the system store by
    /// itself, so this file is used when ``caCertificatePath`` is `nil`.
    public static let systemCABundlePath = "/etc/ssl/certs/ca-certificates.crt"

    /// A PEM file with the CA certificates that may sign the broker's certificate; `nil` for the system bundle.
    public var caCertificatePath: String?
    /// A PEM client certificate, for brokers that verify clients; needs ``clientKeyPath``.
    public var clientCertificatePath: String?
    /// The PEM private key of ``clientCertificatePath`` (not encrypted).
    public var clientKeyPath: String?
    /// Whether the broker's certificate must chain to a trusted CA.
    public var verifyPeer: Bool
    /// Whether the broker's certificate must name the host connected to.
    public var verifyHostname: Bool

    /// TLS settings; verification is on unless turned off.
    public init(
        caCertificatePath: String? = nil,
        clientCertificatePath: String? = nil,
        clientKeyPath: String? = nil,
        verifyPeer: Bool = true,
        verifyHostname: Bool = true
    ) {
        self.caCertificatePath = caCertificatePath
        self.clientCertificatePath = clientCertificatePath
        self.clientKeyPath = clientKeyPath
        self.verifyPeer = verifyPeer
        self.verifyHostname = verifyHostname
    }
}
