import Foundation
import InMemoryTracing
import Responder
import Synchronization
import Tracing

/// How the worker ended each input, read from its `process` spans: the span ends once the input's outputs are
/// confirmed and the input acknowledged, naming the input's message id and its outcome (the Observability article
/// of ResponderWorker lists the attributes).
final class AcknowledgedInputs: Sendable {
    /// How an input ended for good: retries and hand-backs are not endings, the input comes back.
    enum Ending: Sendable {
        case completed(ResponseOutcome.Disposition)
        case deadLettered
    }

    private let tracer: InMemoryTracer
    /// The endings read from the tracer and not asked for yet, by message id, oldest first.
    private let endings = Mutex<[String: [Ending]]>([:])

    init(tracer: InMemoryTracer) {
        self.tracer = tracer
    }

    /// The next ending of the input `messageID`, once the worker acknowledged it; throws after `timeout`.
    func ending(of messageID: String, timeout: Duration) async throws -> Ending {
        let deadline = ContinuousClock.now + timeout
        while true {
            collect()
            let next = endings.withLock { endings in endings[messageID]?.isEmpty == false ? endings[messageID]?.removeFirst() : nil }
            if let next { return next }
            guard ContinuousClock.now < deadline else { throw HarnessTimeout("the worker to acknowledge \(messageID)", timeout) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Moves the finished `process` spans out of the tracer (the pipeline's own spans are dropped).
    private func collect() {
        let spans = tracer.popFinishedSpans().filter { $0.operationName == "process" }
        endings.withLock { endings in
            for span in spans {
                guard case .string(let id) = span.attributes.get("messaging.message.id"),
                    case .string(let outcome) = span.attributes.get("responder.outcome")
                else { continue }
                if let disposition = ResponseOutcome.Disposition(rawValue: outcome) {
                    endings[id, default: []].append(.completed(disposition))
                } else if outcome == "dead_lettered" {
                    endings[id, default: []].append(.deadLettered)
                }
            }
        }
    }
}
