import BrokerHarness
import Foundation
import NotificationEvents
import Testing
import WorkerHarness

/// deploy/kubernetes/ is valid Kubernetes (kubernetes-validate's schemas, strict: an unknown field is an error)
/// and each variant has the shape its README section promises: the single worker a StatefulSet of one with its
/// state on a claimed volume, the fleet a Deployment of several with a disruption budget; both with their URLs in
/// Secret files, a non-root read-only container, resources, and a metrics Service with scrape annotations.
@Suite(.timeLimit(.minutes(10)))
struct KubernetesManifestsTests {
    /// The Kubernetes release the manifests are validated against: the newest whose schemas kubernetes-validate
    /// (the version scripts/test installs) ships.
    static let kubernetesVersion = "1.37.0"

    @Test func everyManifestValidates() async throws {
        var files: [String] = []
        for name in KubernetesVariant.names { files += try await KubernetesVariant.load(name).files.map(\.path) }
        let result = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            arguments: ["kubernetes-validate", "--strict", "-k", Self.kubernetesVersion] + files)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.components(separatedBy: " passed for resource ").count - 1 >= files.count, "\(result.output)")
    }

    @Test func aManifestThatBreaksTheSchemaIsRefused() async throws {
        let folder = try Paths.temporaryFolder("kubernetes")
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.yaml")
        let original = try String(contentsOf: KubernetesVariant.root.appendingPathComponent("single/statefulset.yaml"), encoding: .utf8)
        try original.replacingOccurrences(of: "terminationGracePeriodSeconds:", with: "terminationGracePeriod:")
            .write(to: broken, atomically: true, encoding: .utf8)
        let result = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            arguments: ["kubernetes-validate", "--strict", "-k", Self.kubernetesVersion, broken.path])
        #expect(result.status != 0, "\(result.output)")
    }

    @Test func theSingleWorkerIsOneReplicaWithItsStateOnAClaimedVolume() async throws {
        let single = try await KubernetesVariant.load("single")
        let workload = try single.workload()
        #expect(workload["kind"].text == "StatefulSet")
        #expect(workload["spec"]["replicas"].int == 1)
        let state = try #require(try single.environment()["RESPONDER_STATE"] ?? nil, "the SQLite state file is set")
        let mount = try #require(try single.volume(holding: state), "\(state) is on a volume")
        let claims = workload["spec"]["volumeClaimTemplates"].elements.compactMap { $0["metadata"]["name"].text }
        #expect(claims.contains(mount.volume), "\(state) is on \(mount.volume), not on a claimed volume \(claims)")
        let services = single.objects("Service").compactMap { $0["metadata"]["name"].text }
        #expect(services.contains(workload["spec"]["serviceName"].text ?? ""), "the set's governing Service exists")
    }

    @Test func theFleetIsSeveralReplicasWithADisruptionBudgetAndItsStateInTheDatabase() async throws {
        let fleet = try await KubernetesVariant.load("fleet")
        let workload = try fleet.workload()
        #expect(workload["kind"].text == "Deployment")
        let replicas = try #require(workload["spec"]["replicas"].int)
        #expect(replicas >= 2)
        let environment = try fleet.environment()
        #expect(environment["RESPONDER_STATE"] == nil, "no SQLite file per pod: the fleet shares PostgreSQL")
        #expect(environment["RESPONDER_STATE_FILE"] != nil, "the PostgreSQL URL comes from a Secret file")
        let imageEnvironment = try Dockerfile.load().stage("debian:").arguments(of: "ENV").joined(separator: " ")
        #expect(!imageEnvironment.contains("RESPONDER_STATE="), "the image sets no SQLite state for the pods to inherit")
        let budgets = fleet.objects("PodDisruptionBudget")
        #expect(budgets.count == 1)
        for budget in budgets {
            #expect(try fleet.selects(budget["spec"]["selector"]["matchLabels"]), "the budget selects the workers")
            let maxUnavailable = budget["spec"]["maxUnavailable"].int
            let minAvailable = budget["spec"]["minAvailable"].int
            #expect(maxUnavailable.map { $0 >= 1 && $0 < replicas } ?? minAvailable.map { $0 < replicas } ?? false,
                "the budget lets a drain proceed one worker at a time and keeps the others")
        }
    }

    @Test(arguments: KubernetesVariant.names)
    func theURLsComeFromSecretFilesNeverFromValues(variant name: String) async throws {
        let variant = try await KubernetesVariant.load(name)
        let pod = try variant.pod()
        let secretVolumes = Set(pod["volumes"].elements.filter { !$0["secret"].isNull }.compactMap { $0["name"].text })
        let environment = try variant.environment()
        #expect(environment["RESPONDER_AMQP_URL_FILE"] != nil)
        #expect(environment["RESPONDER_AMQP_URL"] == nil, "the broker URL with its password is no environment value")
        for variable in try variant.container()["env"].elements {
            #expect(variable["valueFrom"]["secretKeyRef"].isNull, "\(variable["name"].text ?? ""): a Secret as a value")
        }
        for (name, value) in environment where name.hasSuffix("_FILE") {
            let path = try #require(value, "\(name) names a file")
            let volume = try variant.volume(holding: path)
            #expect(volume.map { secretVolumes.contains($0.volume) } == true, "\(name)=\(path) is in a Secret volume")
        }
    }

    @Test(arguments: KubernetesVariant.names)
    func theWorkerRunsAsTheImagesUserOnAReadOnlyRoot(variant name: String) async throws {
        let variant = try await KubernetesVariant.load(name)
        let pod = try variant.pod()["securityContext"]
        let container = try variant.container()["securityContext"]
        let user = try #require(try Dockerfile.load().stage("debian:").arguments(of: "USER").last)
        let uid = try #require(Int(user.split(separator: ":").first ?? ""), "the image's USER is numeric: \(user)")
        #expect(uid != 0)
        #expect((container["runAsNonRoot"].bool ?? pod["runAsNonRoot"].bool) == true)
        #expect((container["runAsUser"].int ?? pod["runAsUser"].int) == uid, "the pod runs as the image's user \(uid)")
        #expect(container["readOnlyRootFilesystem"].bool == true)
        #expect(container["allowPrivilegeEscalation"].bool == false)
        #expect(container["capabilities"]["drop"].elements.compactMap(\.text) == ["ALL"])
    }

    @Test(arguments: KubernetesVariant.names)
    func theWorkerHasResourcesAndAScrapedMetricsService(variant name: String) async throws {
        let variant = try await KubernetesVariant.load(name)
        let resources = try variant.container()["resources"]
        for kind in ["requests", "limits"] {
            for resource in ["cpu", "memory"] {
                #expect(resources[kind][resource].text != nil, "\(variant): \(kind).\(resource)")
            }
        }
        let metricsPort = try #require(try variant.containerPort(.string("metrics")), "a container port named metrics")
        let services = try variant.objects("Service").filter { try variant.selects($0["spec"]["selector"]) }
        #expect(services.count == 1, "one Service selects the workers")
        for service in services {
            let annotations = service["metadata"]["annotations"]
            #expect(annotations["prometheus.io/scrape"].text == "true")
            #expect(annotations["prometheus.io/port"].int == metricsPort)
            #expect(annotations["prometheus.io/path"].text == "/metrics")
            let targets = try service["spec"]["ports"].elements.map { try variant.containerPort($0["targetPort"]) }
            #expect(targets.contains(metricsPort), "the Service reaches the metrics port \(metricsPort): \(targets)")
        }
    }
}
