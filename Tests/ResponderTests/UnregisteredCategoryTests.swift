import Logging
import MetricsTestKit
import NotificationEvents
import PipelineHarness
import Synchronization
import Testing

@testable import Responder

/// A response whose category is not registered (a producer's `Post` for `photo-category`, say) still goes where iOS
/// sends it, but is counted by category and warned about once a minute per category, within bounds: the category
/// is producer-controlled text.
@Suite struct UnregisteredCategoryTests {
    /// A clock the test moves by hand.
    final class ManualClock: Sendable {
        private let instant = Mutex(ContinuousClock.now)
        var now: ContinuousClock.Instant { instant.withLock { $0 } }
        func advance(by duration: Duration) { instant.withLock { $0 += duration } }
    }

    private static let metric = MetricDescription.unregisteredCategories.name

    private func count(_ metrics: TestMetrics, _ category: String) -> Int64 {
        metrics.counterTotal(label: Self.metric, dimensions: [("category", category)])
    }

    @Test func theTypoIsCountedAndWarnedAboutOnceAndStillReachesTheApp() async throws {
        let metrics = TestMetrics()
        let clock = ManualClock()
        let (logger, records) = CapturingLogHandler.logger()
        let delegate = TestDelegate()
        let pipeline = ResponsePipeline(
            registry: try Fixtures.registry(delegate: delegate), store: InMemoryStateStore(),
            configuration: PipelineConfiguration(), outputExchange: ResponsePipeline.defaultOutputExchange,
            logger: logger, unregisteredCategories: UnregisteredCategories(factory: metrics, now: { clock.now }))

        for (id, category) in [("e1", "Photo-category"), ("e2", "Photo-category"), ("e3", "photo-category")] {
            let event = Events.response(
                id: id, request: "note-\(id)", category: category, action: .custom("reply-action"),
                userText: "secret reply")
            let outcome = await pipeline.process(Events.message(event))
            if category != "photo-category" { #expect(outcome.disposition == .noUpdate, "\(id): as on iOS, no update") }
        }

        #expect(delegate.journal.entries.map(\.eventID) == ["e1", "e2"], "the unregistered category's responses reach the app")
        #expect(count(metrics, "Photo-category") == 2)
        #expect(count(metrics, "photo-category") == 0, "a registered category is not counted")
        let warnings = records.entries.filter { $0.level >= .warning }
        #expect(warnings.count == 1, "one warning per category per minute: \(records.all)")
        #expect(warnings.first?.metadata["category"] == "Photo-category")
        #expect(!records.all.contains { $0.contains("secret reply") }, "userText is never logged")
    }

    /// A notification without a category is valid (the contract allows an empty `categoryIdentifier`): its
    /// responses are no producer's typo, so neither counted nor warned about.
    @Test func aResponseWithoutACategoryIsNotCountedOrWarnedAbout() async throws {
        let metrics = TestMetrics()
        let (logger, records) = CapturingLogHandler.logger()
        let pipeline = ResponsePipeline(
            registry: try Fixtures.registry(delegate: TestDelegate()), store: InMemoryStateStore(),
            configuration: PipelineConfiguration(), outputExchange: ResponsePipeline.defaultOutputExchange,
            logger: logger, unregisteredCategories: UnregisteredCategories(factory: metrics))
        let event = Events.response(id: "plain", request: "note-plain", category: "", action: .default)
        _ = await pipeline.process(Events.message(event))
        #expect(count(metrics, "") == 0)
        #expect(!records.entries.contains { $0.level >= .warning }, "\(records.all)")
    }

    @Test func aCategoryIsWarnedAboutAtMostOnceAMinute() {
        let metrics = TestMetrics()
        let clock = ManualClock()
        let categories = UnregisteredCategories(factory: metrics, now: { clock.now })
        #expect(categories.count("Post"))
        #expect(!categories.count("Post"))
        #expect(categories.count("Comment"), "each category has a minute of its own")
        clock.advance(by: .seconds(59))
        #expect(!categories.count("Post"))
        clock.advance(by: .seconds(1))
        #expect(categories.count("Post"))
        #expect(!categories.count("Post"))
        #expect(count(metrics, "Post") == 5)
        #expect(count(metrics, "Comment") == 1)
    }

    @Test func labelsAreBoundedInNumberAndLength() {
        let metrics = TestMetrics()
        let clock = ManualClock()
        let categories = UnregisteredCategories(factory: metrics, now: { clock.now })
        let long = String(repeating: "é", count: 100)
        #expect(categories.count(long))
        let cut = String(repeating: "é", count: UnregisteredCategories.maximumLabelBytes / 2)
        #expect(count(metrics, cut) == 1, "a long category is cut to whole characters within the label's bytes")

        for index in 1..<UnregisteredCategories.maximumCategories { _ = categories.count("c\(index)") }
        #expect(count(metrics, "c99") == 1)
        // Past the first 100 distinct categories: one "other" label, warned about once a minute as one category.
        #expect(categories.count("c100"))
        #expect(!categories.count("c101"))
        #expect(count(metrics, "c100") == 0)
        #expect(count(metrics, UnregisteredCategories.otherLabel) == 2)
        #expect(Set(metrics.counters(label: Self.metric).map(\.dimensions.first!.1)).count == 101)
        _ = categories.count("c1")
        #expect(count(metrics, "c1") == 2, "the first 100 keep their own label")
    }
}
