import BrokerHarness
import Foundation
import NotificationEvents
import Testing
import WorkerHarness

/// The settings the deployment files give `responder` are ones it reads and serves: each variable is one
/// `responder run` reads, the probes ask paths and a port it serves (liveness answering without a broker,
/// readiness refusing), the metrics path is served, and each stop grace outlasts the worker's own grace period.
@Suite(.timeLimit(.minutes(10)))
struct DeploymentSettingsTests {
    @Test(arguments: KubernetesVariant.names)
    func everyVariableTheManifestSetsIsOneResponderReads(variant name: String) async throws {
        let surface = try await ResponderSurface.load()
        #expect(surface.variables.contains("RESPONDER_AMQP_URL_FILE"), "the help is read: \(surface.variables)")
        let variables = Set(try await KubernetesVariant.load(name).environment().keys)
        let unread = variables.subtracting(surface.variables)
        #expect(unread.isEmpty, "responder run reads no \(unread.sorted())")
    }

    @Test(arguments: KubernetesVariant.names)
    func theProbesAskWhatResponderServesOnItsMetricsPort(variant name: String) async throws {
        let variant = try await KubernetesVariant.load(name)
        let surface = try await ResponderSurface.load()
        let configured = try variant.environment()["RESPONDER_METRICS_PORT"] ?? nil
        let metricsPort = try Int(configured ?? surface.defaultValue(of: "--metrics-port"))
        let container = try variant.container()
        let live = container["livenessProbe"]["httpGet"]
        let ready = container["readinessProbe"]["httpGet"]
        for probe in [live, ready] {
            #expect(try variant.containerPort(probe["port"]) == metricsPort, "the probe asks the metrics port \(String(describing: metricsPort))")
        }
        let livePath = try #require(live["path"].text)
        let readyPath = try #require(ready["path"].text)
        let statuses = try await ResponderSurface.statusesWithoutBroker([livePath, readyPath, "/health/none"])
        #expect(statuses["/health/none"] == 404, "an unknown path is refused, so the answers below mean something")
        #expect(statuses[livePath] == 200, "\(livePath): live while the broker is away, so an outage restarts nothing")
        #expect(statuses[readyPath] == 503, "\(readyPath): not ready while the broker is away")
    }

    @Test(arguments: KubernetesVariant.names)
    func thePodOutlastsTheWorkersGracePeriod(variant name: String) async throws {
        let variant = try await KubernetesVariant.load(name)
        let surface = try await ResponderSurface.load()
        let configured = try variant.environment()["RESPONDER_GRACE_PERIOD"] ?? nil
        let grace = try #require(Int(try configured ?? surface.defaultValue(of: "--grace-period")))
        let termination = try #require(try variant.pod()["terminationGracePeriodSeconds"].int)
        #expect(termination > grace, "the kubelet's SIGKILL comes \(termination) s after SIGTERM; the worker may take \(grace) s")
    }

    @Test func theMetricsServicesScrapeAPathResponderServes() async throws {
        var paths = Set<String>()
        for name in KubernetesVariant.names {
            for service in try await KubernetesVariant.load(name).objects("Service") {
                paths.insert(try #require(service["metadata"]["annotations"]["prometheus.io/path"].text))
            }
        }
        let statuses = try await ResponderSurface.statusesWithoutBroker(paths)
        for path in paths { #expect(statuses[path] == 200, "\(path)") }
    }

    /// docker-compose.yml's worker: the same checks on its environment and stop grace.
    @Test func theComposeWorkersSettingsAreOnesResponderReads() async throws {
        let compose = try #require(try await JSONValue.yamlDocuments(Paths.root.appendingPathComponent("docker-compose.yml")).first)
        let worker = compose["services"]["responder"]
        let environment = worker["environment"].fields.compactMapValues(\.text)
        let surface = try await ResponderSurface.load()
        #expect(!environment.isEmpty)
        #expect(Set(environment.keys).subtracting(surface.variables).isEmpty, "\(environment.keys.sorted())")
        let grace = try #require(Int(try environment["RESPONDER_GRACE_PERIOD"] ?? surface.defaultValue(of: "--grace-period")))
        let stop = try #require(worker["stop_grace_period"].text?.wholeMatch(of: /([0-9]+)s/).flatMap { Int($0.output.1) })
        #expect(stop > grace, "compose kills \(stop) s after SIGTERM; the worker may take \(grace) s")
        let port = try environment["RESPONDER_METRICS_PORT"] ?? surface.defaultValue(of: "--metrics-port")
        let health = worker["healthcheck"]["test"].elements.compactMap(\.text)
        #expect(health.suffix(2) == ["--metrics-port", port], "the health check asks the metrics port: \(health)")
    }
}
