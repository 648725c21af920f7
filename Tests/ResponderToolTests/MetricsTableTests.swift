import BrokerHarness
import Foundation
import Responder
import Testing
import WorkerHarness

@testable import ResponderWorker

/// The Observability article's metrics table (ResponderWorker.docc) is ``MetricDescription/all`` rendered, and the
/// catalog follows Prometheus's naming conventions: a metric added, renamed or relabelled changes the article in the
/// same commit or fails here.
@Suite struct MetricsTableTests {
    static let header = ["| metric | type | labels | meaning |", "| --- | --- | --- | --- |"]

    @Test func articlesTableIsTheCatalogRendered() throws {
        let article = try String(
            contentsOf: Paths.root.appendingPathComponent("Sources/ResponderWorker/ResponderWorker.docc/Observability.md"), encoding: .utf8)
        let table = (Self.header + MetricDescription.all.map(\.tableRow)).joined(separator: "\n")
        #expect(article.contains(table + "\n"), "Observability.md's metrics table should read:\n\(table)")
    }

    @Test func namesFollowPrometheusConventions() {
        #expect(Set(MetricDescription.all.map(\.name)).count == MetricDescription.all.count)
        for metric in MetricDescription.all {
            #expect(metric.name.wholeMatch(of: #/responder_[a-z]+(_[a-z]+)*/#) != nil, "\(metric.name)")
            #expect(metric.name.hasSuffix("_total") == (metric.kind == .counter), "\(metric.name): _total iff counter")
            #expect(!metric.name.hasSuffix("_seconds") || metric.kind == .histogram, "\(metric.name)")
            #expect(metric.labels.allSatisfy { $0.wholeMatch(of: #/[a-z]+(_[a-z]+)*/#) != nil }, "\(metric.name)")
        }
    }

    @Test func everyOutcomeTheWorkerCountsIsListed() {
        for outcome in WorkerMetrics.Outcome.allCases {
            #expect(MetricDescription.events.meaning.contains("`\(outcome.rawValue)`"), "\(outcome)")
        }
    }
}
