import Hummingbird
import Logging
import Prometheus

/// The HTTP endpoints operators scrape and probe: `/metrics` (Prometheus text format), `/health/live` and
/// `/health/ready` (503 with the reasons while not ready).
public enum ObservabilityServer {
    /// An application serving the endpoints on `host:port`; run it as a service of the worker's service group.
    public static func application(
        host: String, port: Int, registry: PrometheusCollectorRegistry, readiness: Readiness, logger: Logger
    ) -> some ApplicationProtocol {
        let router = Router()
        router.get("metrics") { _, _ -> Response in
            var text = [UInt8]()
            registry.emit(into: &text)
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: text)))
        }
        router.get("health/live") { _, _ in "live\n" }
        router.get("health/ready") { _, _ -> Response in
            let reasons = readiness.currentReasons
            let text = reasons.isEmpty ? "ready\n" : reasons.map { "not ready: \($0)\n" }.joined()
            return Response(
                status: reasons.isEmpty ? .ok : .serviceUnavailable,
                headers: [.contentType: "text/plain; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        }
        return Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "responder"),
            logger: logger)
    }
}
