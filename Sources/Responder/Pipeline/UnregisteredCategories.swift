import Metrics
import NotificationEvents
import Synchronization

/// Counts responses whose category is not registered, and says when one deserves a warning.
///
/// Such a response goes where iOS sends it (the app delegate, no extension, no buttons to start from), which is
/// what a producer's typo (`Post` for `post`) looks like too: without a count and a line an operator never sees it.
/// The category is producer-controlled text, so what it costs is bounded: a label of at most ``maximumLabelBytes``
/// UTF-8 bytes, at most ``maximumCategories`` distinct labels (later categories count as ``otherLabel``), and a
/// warning per label at most once per ``warningInterval``.
final class UnregisteredCategories: Sendable {
    /// Distinct categories counted under their own label; the ones after them count as ``otherLabel``.
    static let maximumCategories = 100
    /// The label of the categories past the first ``maximumCategories``.
    static let otherLabel = "other"
    /// The most UTF-8 bytes of a category a label keeps (whole characters).
    static let maximumLabelBytes = 64
    /// How often one category may be warned about.
    static let warningInterval = Duration.seconds(60)
    /// The warning, logged with the response's metadata (its category among them).
    static let warning =
        "a response's category is not registered: it goes to the app delegate with no buttons, as on iOS; if the "
        + "producer misspelt it, fix the producer (responder_unregistered_category_responses_total counts these; "
        + "this line comes at most once a minute per category)"

    private struct State {
        var counters: [String: Counter] = [:]
        var lastWarning: [String: ContinuousClock.Instant] = [:]
    }

    private let state = Mutex(State())
    private let factory: any MetricsFactory
    private let now: @Sendable () -> ContinuousClock.Instant
    private let other: Counter

    /// Counters made by `factory` (the process's by default); `now` is the clock the warning interval is read on.
    init(
        factory: any MetricsFactory = MetricsSystem.factory,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.factory = factory
        self.now = now
        // Made at once, so the metric is served (at 0) before any response of an unregistered category came.
        other = Self.counter(Self.otherLabel, factory: factory)
    }

    /// The label `category` is counted under: its first ``maximumLabelBytes`` bytes.
    static func label(of category: String) -> String {
        String(category.prefix(utf8Bytes: maximumLabelBytes))
    }

    /// Counts one response of the unregistered `category`; returns whether to log a warning about it: the first
    /// time its label is seen, and again once ``warningInterval`` has passed since the last warning.
    func count(_ category: String) -> Bool {
        let label = Self.label(of: category)
        let instant = now()
        let (counter, warns) = state.withLock { state -> (Counter, Bool) in
            let counter: Counter
            if let known = state.counters[label] {
                counter = known
            } else if state.counters.count < Self.maximumCategories {
                counter = Self.counter(label, factory: factory)
                state.counters[label] = counter
            } else {
                counter = other
            }
            let key = counter === other ? Self.otherLabel : label
            if let last = state.lastWarning[key], instant < last + Self.warningInterval { return (counter, false) }
            state.lastWarning[key] = instant
            return (counter, true)
        }
        counter.increment()
        return warns
    }

    private static func counter(_ label: String, factory: any MetricsFactory) -> Counter {
        Counter(
            label: MetricDescription.unregisteredCategories.name,
            dimensions: [(MetricDescription.unregisteredCategories.labels[0], label)], factory: factory)
    }
}
