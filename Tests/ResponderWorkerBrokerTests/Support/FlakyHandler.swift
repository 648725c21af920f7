import NotificationEvents
import Responder
import Synchronization
import WorkerHarness

/// A handler that fails on purpose, for the suites of retries (through the retry queues, and in place in ordered
/// mode) and of the store pause. The notification's identifier says how the first event on it behaves: `…-always`
/// fails retryably every time, `…-twice` retryably twice and then succeeds, `…-permanent` fails permanently,
/// anything else succeeds. The first event is the one whose id is the notification's own or ends in `-e1`; later
/// ones (`-e2`, …) succeed. Success shows a button named after the event, so each one publishes an update.
struct FlakyHandler: NotificationContentExtension {
    struct State: Codable, Sendable {}

    /// A retryable failure that says which call it was.
    struct Busy: Error, CustomStringConvertible {
        var call: Int
        var description: String { "the downstream service is busy (call \(call))" }
    }

    /// Every handler call per notification, in order, and how often each event was handled.
    final class Calls: Sendable {
        private let state = Mutex<
            (byRequest: [String: [String]], byEvent: [String: Int], firstCall: [String: ContinuousClock.Instant])
        >(([:], [:], [:]))

        /// Records a call for `event` on `request`; returns how often `event` was handled, this call included.
        func record(request: String, event: String) -> Int {
            let now = ContinuousClock.now
            return state.withLock {
                $0.byRequest[request, default: []].append(event)
                $0.byEvent[event, default: 0] += 1
                if $0.firstCall[event] == nil { $0.firstCall[event] = now }
                return $0.byEvent[event]!
            }
        }

        /// When the event `eventID` was first handled, if it was.
        func firstCall(of eventID: String) -> ContinuousClock.Instant? { state.withLock { $0.firstCall[eventID] } }

        /// How often the event `eventID` was handled.
        subscript(eventID: String) -> Int { state.withLock { $0.byEvent[eventID] ?? 0 } }

        /// The events handled on notification `request`, in the order of the calls.
        subscript(request request: String) -> [String] { state.withLock { $0.byRequest[request] ?? [] } }
    }

    static let category = "flaky-category"

    let name = "flaky"
    let categoryIdentifiers: Set<String> = [category]
    let initialState = State()
    let calls: Calls

    func didReceive(
        _ response: NotificationResponse, context: inout ExtensionContext<State>
    ) async throws -> ResponseOption {
        let call = calls.record(request: context.requestIdentifier, event: context.eventID)
        if context.eventID == context.requestIdentifier || context.eventID.hasSuffix("-e1") {
            switch context.requestIdentifier.split(separator: "-").last {
            case "always": throw Busy(call: call)
            case "twice" where call <= 2: throw Busy(call: call)
            case "permanent": throw PermanentFailure("the button was withdrawn (call \(call))")
            default: break
            }
        }
        context.setNotificationActions([NotificationAction(identifier: context.eventID, title: "Done")])
        return .doNotDismiss
    }

    /// A registry with the flaky category, whose one action is `poke`, and the handler.
    static func registry(_ calls: Calls) throws -> HandlerRegistry {
        var registry = HandlerRegistry()
        registry.register(NotificationCategory(identifier: category, actions: [NotificationAction(identifier: "poke", title: "Poke")]))
        try registry.register(FlakyHandler(calls: calls))
        return registry
    }

    /// A poke on notification `<prefix>-<behaviour>`, event id the same.
    static func poke(_ behaviour: String, _ topology: TestTopology) -> FixtureLine {
        let id = "\(topology.prefix)-\(behaviour)"
        return RedGreenTaps.line(
            RedGreenTaps.event(id: id, request: id, category: category, action: .custom("poke")),
            exchange: topology.topology.inputExchange)
    }

    /// Event `<request>-e<event>` on notification `request`, routed by the request identifier, as ordered mode's
    /// shards are.
    static func poke(_ request: String, event: Int, _ topology: TestTopology) -> FixtureLine {
        let id = "\(request)-e\(event)"
        return RedGreenTaps.line(
            body: EventCodec.encode(RedGreenTaps.event(id: id, request: request, category: category, action: .custom("poke"))),
            messageID: id, routingKey: request, exchange: topology.topology.inputExchange)
    }
}
