/// One metric a worker serves on `/metrics`: its Prometheus name, type, label names and meaning.
///
/// ``all`` is the one list of them: the pipeline and the worker create their instruments from its entries, the
/// metrics table of the Observability article (ResponderWorker.docc) is its rendering, and tests hold that table,
/// the served exposition and the Grafana dashboard to it.
package struct MetricDescription: Sendable, Equatable {
    /// The Prometheus type the metric is exposed as.
    package enum Kind: String, Sendable {
        case counter
        case gauge
        case histogram
    }

    /// The exposed name, following Prometheus conventions: `responder_` prefix, base units, `_total` on counters.
    package let name: String
    package let kind: Kind
    /// The label names; their values are bounded codes, never identifiers or typed text.
    package let labels: [String]
    /// What it counts or shows, with the label values, for people (the metrics table).
    package let meaning: String

    /// The metrics table's row for this metric.
    package var tableRow: String {
        "| `\(name)` | \(kind.rawValue) | \(labels.map { "`\($0)`" }.joined(separator: ", ")) | \(meaning) |"
    }
}
