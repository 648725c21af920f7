import Metrics
import Prometheus
import ResponderWorker
import Testing

/// The worker's duration histograms resolve millisecond latencies, where the default buckets (from 5 ms) cannot.
@Suite struct LatencyBucketsTests {
    /// The Prometheus text of a registry after one timer records `duration`.
    func exposition(after duration: Duration) -> String {
        let registry = PrometheusCollectorRegistry()
        let factory = PrometheusMetricsFactory.responder(registry: registry)
        let timer = factory.makeTimer(label: "responder_test_duration_seconds", dimensions: [])
        timer.recordNanoseconds(Int64(duration.components.seconds) * 1_000_000_000
            + duration.components.attoseconds / 1_000_000_000)
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    func bucket(_ text: String, _ bound: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix("responder_test_duration_seconds_bucket{le=\"\(bound)\"}") }
            .map { String($0.split(separator: " ").last ?? "") }
    }

    @Test func aMillisecondAndAHalfFallsBetweenOneAndTwoMilliseconds() {
        let text = exposition(after: .microseconds(1500))
        #expect(bucket(text, "0.001") == "0")
        #expect(bucket(text, "0.002") == "1")
    }

    @Test func theBucketsAroundTheLatencyTargetAreFine() {
        // p99 under 20 ms is the target: 15 and 20 ms are bounds of their own, so a 17 ms event is told from both.
        let text = exposition(after: .milliseconds(17))
        #expect(bucket(text, "0.015") == "0")
        #expect(bucket(text, "0.02") == "1")
    }

    @Test func theSlowTailStillReachesTenSeconds() {
        let text = exposition(after: .seconds(7))
        #expect(bucket(text, "5.0") == "0")
        #expect(bucket(text, "10.0") == "1")
    }
}
