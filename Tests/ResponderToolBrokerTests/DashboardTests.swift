import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import Responder
import Testing
import WorkerHarness

/// Every query of deploy/grafana/responder.json names metrics, and labels to group by, that the `/metrics` of a
/// running worker serves, and that worker serves exactly the metrics ``MetricDescription/all`` lists: the dashboard
/// cannot keep showing a metric that was renamed or removed, nor the catalog miss one. And every metric of the
/// catalog is on the dashboard: a metric added is shown, or fails here.
@Suite(.timeLimit(.minutes(10)))
struct DashboardTests {
    private static let dashboard = Paths.root.appendingPathComponent("deploy/grafana/responder.json")

    @Test func everyMetricOfTheCatalogIsOnTheDashboard() throws {
        let shown = Set(try Self.queries().flatMap { Self.matches(of: #/responder_[a-z_]+/#, in: $0) })
        for metric in MetricDescription.all {
            // A histogram is queried by its series: `_bucket`, `_sum` or `_count`.
            let series = metric.kind == .histogram
                ? ["_bucket", "_sum", "_count"].map { metric.name + $0 } : [metric.name]
            #expect(!shown.isDisjoint(with: series), "no panel of the dashboard shows \(metric.name)")
        }
    }

    @Test(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"))
    func everyQueryReadsMetricsTheWorkerServes() async throws {
        let queries = try Self.queries()
        #expect(queries.count >= 13)

        // One update and one dead letter, so the labelled series exist, as they do on any worker that has run; in
        // ordered mode, so the shards' series exist too.
        let topology = TestTopology("dashboard", shards: 2)
        let probe = try await QueueProbe.open(topology)
        let folder = try Paths.temporaryFolder()
        let worker = try WorkerProcess(topology: topology, statePath: folder.appendingPathComponent("state.sqlite").path)
        try await worker.waitUntilReady()
        try await probe.publish(Array(try QueueProbe.lines(of: Paths.session("rotations")).prefix(1)))
        try await probe.publish(body: Array("{".utf8), properties: MessageProperties())
        _ = try await probe.takeUpdates(1)
        _ = try await probe.takeDeadLetters(1)
        // The dead letter's counter appears once its confirm comes back, after the broker has routed it.
        try await waitFor("the dead letter counted") {
            try await worker.metric("responder_dead_lettered_total") >= 1
        }
        let exposition = try await worker.metrics()
        let served = Self.samples(exposition)
        let types = Self.types(exposition)
        #expect(
            types == Dictionary(uniqueKeysWithValues: MetricDescription.all.map { ($0.name, $0.kind.rawValue) }),
            "/metrics serves other metrics than MetricDescription.all lists")
        for metric in MetricDescription.all where metric.kind != .histogram {
            #expect(served[metric.name] == Set(metric.labels), "\(metric.name)'s labels")
        }

        for query in queries {
            let metrics = Self.matches(of: #/responder_[a-z_]+/#, in: query)
            #expect(!metrics.isEmpty, "\(query) reads no responder metric")
            for metric in metrics {
                #expect(served[metric] != nil, "/metrics serves no \(metric) (\(query))")
            }
            // The labels a query groups by, apart from the ones Prometheus adds (job, instance) and a histogram's le.
            let grouped = Self.matches(of: #/by \(([a-z_, ]+)\)/#, in: query)
                .flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
                .filter { !["job", "instance", "le"].contains($0) }
            for label in grouped {
                #expect(metrics.contains { served[$0]?.contains(label) == true }, "no metric of \(query) has the label \(label)")
            }
        }
        worker.send(SIGTERM)
        #expect(try await worker.waitForExit() == 0)
        await probe.cleanUp()
    }

    /// The PromQL of every panel's targets and of the template variables.
    private static func queries() throws -> [String] {
        let dashboard = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: Self.dashboard))
        let panels = dashboard["panels"].elements
        #expect(!panels.isEmpty)
        let targets = panels.flatMap { $0["targets"].elements }.compactMap { $0["expr"].text }
        let variables = dashboard["templating"]["list"].elements.compactMap { $0["query"].text }
        #expect(targets.count == panels.flatMap { $0["targets"].elements }.count, "a target without expr")
        return targets + variables
    }

    /// The metrics a Prometheus text exposition declares (`# TYPE name type`), with their types.
    private static func types(_ exposition: String) -> [String: String] {
        var types: [String: String] = [:]
        for line in exposition.split(separator: "\n") where line.hasPrefix("# TYPE ") {
            let words = line.split(separator: " ")
            types[String(words[2])] = String(words[3])
        }
        return types
    }

    /// The sample names of a Prometheus text exposition, each with the label names its samples carry.
    private static func samples(_ exposition: String) -> [String: Set<String>] {
        var samples: [String: Set<String>] = [:]
        for line in exposition.split(separator: "\n") where !line.hasPrefix("#") {
            let name = String(line.prefix { $0 != "{" && $0 != " " })
            let labels = line.dropFirst(name.count).first == "{"
                ? matches(of: #/([a-z_]+)="/#, in: String(line.prefix { $0 != "}" })) : []
            samples[name, default: []].formUnion(labels)
        }
        return samples
    }

    private static func matches(of regex: Regex<(Substring, Substring)>, in text: String) -> [String] {
        text.matches(of: regex).map { String($0.output.1) }
    }

    private static func matches(of regex: Regex<Substring>, in text: String) -> [String] {
        text.matches(of: regex).map { String($0.output) }
    }
}
