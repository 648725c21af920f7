import BrokerHarness
import Foundation
import WorkerHarness

/// What `responder run` reads and serves, learnt from the program of this build rather than from a copy: the
/// variables and defaults its `--help` names (RunHelpTests holds the help to the variables the code reads), and
/// how its HTTP paths answer while its broker is unreachable.
struct ResponderSurface {
    let help: String
    /// Every `RESPONDER_…` variable the help names.
    let variables: Set<String>

    static func load() async throws -> ResponderSurface {
        let result = try await Tool.run(["run", "--help"])
        guard result.status == 0 else { throw HarnessError("responder run --help: \(result.stderr)") }
        let variables = Set(result.stdout.matches(of: /RESPONDER_[A-Z_]+/).map { String($0.output) })
        return ResponderSurface(help: result.stdout, variables: variables)
    }

    /// The default the help gives for `option` (`--grace-period` gives `25`).
    func defaultValue(of option: String) throws -> String {
        let entry = RunHelpTests.optionEntries(help).first { $0.hasPrefix(option + " ") }
        guard let match = entry?.firstMatch(of: /default: ([^;)]+)\)/) else {
            throw HarnessError("responder run --help gives no default for \(option)")
        }
        return String(match.output.1)
    }

    /// The HTTP status of each of `paths` on a `responder run` whose broker is unreachable: what a probe or a
    /// scraper gets while the worker runs but is not connected.
    static func statusesWithoutBroker(_ paths: Set<String>) async throws -> [String: Int] {
        let folder = try Paths.temporaryFolder("surface")
        defer { try? FileManager.default.removeItem(at: folder) }
        let nowhere = "amqp://guest:guest@127.0.0.1:\(try FreePort.find())/%2F"
        let worker = try WorkerProcess(
            topology: TestTopology("surface"), statePath: folder.appendingPathComponent("state.sqlite").path,
            environment: ["RESPONDER_AMQP_URL": nowhere])
        try await waitFor("the worker's HTTP server") { await worker.status(of: "/metrics") != nil }
        var statuses: [String: Int] = [:]
        for path in paths { statuses[path] = await worker.status(of: path) }
        worker.send(SIGTERM)
        try await worker.waitForExit()
        return statuses
    }
}
