import ArgumentParser
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `responder health`: asks a running worker whether it is ready, for container health checks, which can only run
/// a command (the runtime image has no HTTP client of its own).
struct HealthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health",
        abstract: "Exit 0 when the worker's /health/ready answers 200, else 1.",
        discussion: """
            Prints the worker's answer (\"ready\", or what keeps it from being ready). The Dockerfile's \
            HEALTHCHECK and docker-compose.yml run it.
            """)

    @Option(help: "The worker's metrics port. (env: RESPONDER_METRICS_PORT; default: 9090)")
    var port: Int?

    @Option(help: "The worker's address.")
    var host = "127.0.0.1"

    @Option(help: "Seconds to wait for the answer.")
    var timeout: Double = 3

    func run() async throws {
        let port = try EnvironmentFallback().resolve(port, "RESPONDER_METRICS_PORT", default: 9090)
        guard let url = URL(string: "http://\(host):\(port)/health/ready") else {
            throw ValidationError("\(host):\(port) is not an address")
        }
        var request = URLRequest(url: url)
        request.timeoutInterval = timeout
        let answer: (Data, URLResponse)
        do {
            answer = try await URLSession.shared.data(for: request)
        } catch {
            standardError("health: no answer from \(url): \(error.localizedDescription)")
            throw ExitCode.failure
        }
        print(String(decoding: answer.0, as: UTF8.self), terminator: "")
        guard (answer.1 as? HTTPURLResponse)?.statusCode == 200 else { throw ExitCode.failure }
    }
}
