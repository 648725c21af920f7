import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// Schemas/asyncapi.yaml is a valid AsyncAPI 3.0 document (the asyncapi3 package's models of the specification and
/// its AMQP bindings, every $ref resolved) whose exchanges, queues and bindings are what `responder topology --json`
/// prints, so the two cannot drift; asyncapi_check.py does the judging.
@Suite struct AsyncAPIContractTests {
    private static let document = Paths.root.appendingPathComponent("Schemas/asyncapi.yaml")

    @Test func documentIsValidAndEqualsTheTopology() async throws {
        let result = try await Self.check(Self.document)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output == "ok\n")
    }

    /// The checker itself catches each kind of mistake: a broken document, a dangling reference, an event type of
    /// the JSON Schemas without its message, and drift from the topology.
    @Test(arguments: [
        ("action: receive", "action: subscribe", "not a valid AsyncAPI 3.0 document"),
        ("          durable: true", "          durabel: true", "not a valid AsyncAPI 3.0 document"),
        ("#/$defs/actionSetUpdate", "#/$defs/actionSetUpdates", "does not resolve"),
        ("name: notification.lifecycle.v1", "name: notification.lifecycle",
         "notification.lifecycle.v1 (notification-lifecycle.v1.schema.json) has no message"),
        ("$ref: './notification-lifecycle.v1.schema.json'", "$ref: './notification-response.v1.schema.json'",
         "notification.lifecycle.v1 (notification-lifecycle.v1.schema.json) has no message"),
        ("$ref: './notification-removed.v1.schema.json'", "$ref: './notification-dismissed.v1.schema.json'",
         "notification.removed.v1 (notification-removed.v1.schema.json) has no message"),
        ("x-delivery-limit: 5", "x-delivery-limit: 6", "queues differ from responder topology --json"),
        ("routingKey: '#'", "routingKey: 'red-category'", "bindings differ from responder topology --json"),
        ("type: topic", "type: direct", "exchanges differ from responder topology --json"),
    ])
    func checkerRefusesABrokenCopy(original: String, broken: String, problem: String) async throws {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        #expect(text.contains(original))
        // Beside the original, so its references to the JSON Schemas resolve as they do from Schemas/.
        let copy = Self.document.deletingLastPathComponent().appendingPathComponent("asyncapi.broken-\(UUID().uuidString).yaml")
        try text.replacingOccurrences(of: original, with: broken).write(to: copy, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: copy) }
        let result = try await Self.check(copy)
        #expect(result.status == 1)
        #expect(result.output.contains(problem), "\(result.output)")
    }

    private static func check(_ document: URL) async throws -> (status: Int32, output: String) {
        let topology = try await Tool.run(["topology", "--json"])
        try #require(topology.status == 0, "\(topology.stderr)")
        let folder = try Paths.temporaryFolder("asyncapi")
        let printed = folder.appendingPathComponent("topology.json")
        try topology.stdout.write(to: printed, atomically: true, encoding: .utf8)
        let checker = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("asyncapi_check.py")
        // The python3 on PATH, the one scripts/test installs asyncapi3 for.
        return try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", checker.path, document.path, printed.path])
    }
}
