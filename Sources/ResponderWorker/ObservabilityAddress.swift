/// The address of a worker's metrics and health endpoints.
public struct ObservabilityAddress: Sendable, Hashable {
    /// The address to listen on; every interface by default, so a container's port mapping reaches it.
    public var host = "0.0.0.0"
    /// The port to listen on.
    public var port = 9090

    /// The default address, `0.0.0.0:9090`.
    public init() {}

    /// Listens on `host:port`.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }
}
