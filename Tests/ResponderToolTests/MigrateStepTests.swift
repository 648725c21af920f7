import BrokerHarness
import Foundation
import NotificationEvents
import Testing
import WorkerHarness

/// The deployments' migrate steps (the fleet compose file's `migrate` service, the fleet Deployment's init
/// container) name their store on the command line, since `migrate` never takes it from the environment: run with
/// the real binary, each gets as far as reading the mounted secret file it names.
@Suite struct MigrateStepTests {
    private func expectAcceptedUpToTheSecret(_ arguments: [String]) async throws {
        let secret = try #require(arguments.last, "\(arguments)")
        let result = try await Tool.run(arguments)
        #expect(result.status != 0)
        #expect(result.stderr.hasPrefix("Error: --state-file \(secret): cannot read \(secret)"), "\(result.stderr)")
    }

    @Test func theFleetComposeFilesMigrateServiceNamesItsStore() async throws {
        let compose = try #require(await JSONValue.yamlDocuments(Paths.root.appendingPathComponent("docker-compose.fleet.yml")).first)
        let command = compose["services"]["migrate"]["command"].elements.compactMap(\.text)
        #expect(command.first == "migrate")
        try await expectAcceptedUpToTheSecret(command)
    }

    @Test func theFleetDeploymentsInitContainerNamesItsStore() async throws {
        let pod = try await KubernetesVariant.load("fleet").pod()
        let migrate = try #require(pod["initContainers"].elements.first { $0["name"].text == "migrate" })
        let arguments = migrate["args"].elements.compactMap(\.text)
        #expect(arguments.first == "migrate")
        try await expectAcceptedUpToTheSecret(arguments)
    }
}
