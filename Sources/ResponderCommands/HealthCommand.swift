import ArgumentParser
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `health`: asks a running worker whether it is ready, for container health checks, which can only run
/// a command (the runtime image has no HTTP client of its own).
struct HealthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health",
        abstract: "Exit 0 when the worker's /health/ready answers 200, else 1.",
        discussion: """
            Prints the worker's answer (\"ready\", or what keeps it from being ready). The Dockerfile's \
            HEALTHCHECK and docker-compose.yml run it.
            """)

    @Option(name: Settings.healthPort.name, help: Settings.healthPort.help) var port: String?

    @Option(name: Settings.healthHost.name, help: Settings.healthHost.help) var host: String?

    @Option(name: Settings.healthTimeout.name, help: Settings.healthTimeout.help) var timeout: String?

    func run() async throws {
        let environment = EnvironmentFallback()
        let port = try Settings.healthPort.resolve(self.port, environment)
        let timeout = try Settings.healthTimeout.resolve(self.timeout, environment)
        let host = try Settings.healthHost.resolve(self.host, environment)
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
