import Prometheus

extension PrometheusMetricsFactory {
    /// A factory for the worker's metrics whose duration histograms resolve its latencies.
    ///
    /// swift-prometheus's default buckets start at 5 ms, while an event's delivery-to-ack time on a healthy worker
    /// is about a millisecond, so p50 and p99 would fall into the first bucket and read as "under 5 ms". These
    /// buckets are finer below 100 ms, where the latency target (p99 under 20 ms at half load) sits, and still
    /// reach 10 s for the slow tail of a paused store or a blocked broker.
    public static func responder(registry: PrometheusCollectorRegistry) -> PrometheusMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(3),
            .milliseconds(5), .microseconds(7500), .milliseconds(10), .milliseconds(15), .milliseconds(20),
            .milliseconds(30), .milliseconds(50), .milliseconds(75), .milliseconds(100), .milliseconds(250),
            .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
        ]
        return factory
    }
}
