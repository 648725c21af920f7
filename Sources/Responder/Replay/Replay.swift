import Foundation
import NotificationEvents

/// Offline replay: runs a recorded fixture through the same ``ResponsePipeline`` and ``ResponseScheduler`` the
/// broker worker uses, with an in-memory transport, and writes the outputs as fixture lines.
///
/// Outputs are written in the order of the inputs that caused them, whatever order notifications completed in,
/// and they derive from the inputs alone, so the same fixture always gives the same bytes. An event seen before
/// (a redelivery) writes its stored outputs again, as the worker republishes them.
public struct Replay: Sendable {
    /// The pipeline the fixture runs through.
    public var pipeline: ResponsePipeline
    /// How many notifications are handled at once.
    public var maxConcurrentNotifications: Int

    /// A replay through `pipeline`.
    public init(pipeline: ResponsePipeline, maxConcurrentNotifications: Int = 8) {
        self.pipeline = pipeline
        self.maxConcurrentNotifications = maxConcurrentNotifications
    }

    /// Replays the JSON Lines fixture at `url`.
    ///
    /// - Parameters:
    ///   - url: the fixture file.
    ///   - onOutput: receives each output as the UTF-8 bytes of one fixture line (stable JSON, no line break), in
    ///     input order. Bytes, not a `String`: a writer copies them as they are, where a `String` would validate them
    ///     again.
    ///   - onProblem: receives each line that was dead-lettered or failed, in input order.
    ///   - onProgress: receives the summary so far after each line.
    /// - Returns: the summary of the whole run.
    /// - Throws: when the fixture cannot be read, what `onOutput` throws, or ``ReplayStoreUnavailable`` when the state
    ///   store became unavailable: the replay stops there, since every later line would meet it too.
    public func run(
        fixture url: URL, onOutput: ([UInt8]) throws -> Void, onProblem: (ReplayProblem) -> Void = { _ in },
        onProgress: (ReplaySummary) -> Void = { _ in }
    ) async throws -> ReplaySummary {
        var reader = try FixtureReader(url: url)
        var summary = ReplaySummary()
        var order = InputOrder<Completed>()
        func emit(_ ready: [(line: Int, value: Completed)]) throws {
            for (line, completed) in ready {
                if let problem = try summary.count(completed.event, completed.outcome, line: line) { onProblem(problem) }
                for output in completed.outcome.outputs {
                    try onOutput(EventCodec.encode(FixtureLine(output)))
                }
                onProgress(summary)
            }
        }

        let scheduler = ResponseScheduler<Int>(
            pipeline: pipeline, maxConcurrentNotifications: maxConcurrentNotifications)
        var completions = scheduler.completions.makeAsyncIterator()
        // Enough outstanding lines to keep every notification slot busy, few enough to bound memory.
        let window = maxConcurrentNotifications * 64
        var outstanding = 0
        func collect(while condition: () -> Bool) async throws {
            while condition(), let completion = await completions.next() {
                outstanding -= 1
                try emit(
                    order.complete(completion.tag, Completed(event: completion.event, outcome: completion.outcome)))
            }
        }
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await scheduler.run() }
            while let bytes = try reader.nextLine() {
                guard bytes.contains(where: { !Self.isBlank($0) }) else { continue }
                let line = reader.lineNumber
                order.expect(line)
                do throws(InputRejection) {
                    scheduler.submit(InboundMessage(try Self.fixtureLine(bytes)), tag: line)
                    outstanding += 1
                } catch {
                    try emit(order.complete(line, Completed(event: nil, outcome: error.outcome)))
                }
                try await collect { outstanding >= window }
            }
            scheduler.finish()
            try await collect { outstanding > 0 }
        }
        return summary
    }

    private struct Completed {
        var event: NotificationResponseEvent?
        var outcome: ResponseOutcome
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    /// The delivery a fixture line records; a line that is not one is rejected like an undecodable body.
    static func fixtureLine(_ bytes: [UInt8]) throws(InputRejection) -> FixtureLine {
        do {
            return try EventCodec.decodeFixtureLine(bytes)
        } catch .malformedJSON {
            throw InputRejection(reason: .malformedJSON, detail: "the line is not valid JSON")
        } catch {
            // The likeliest slip of a hand-written fixture: the event alone, without the delivery around it.
            if (try? EventCodec.decodeResponseEvent(bytes)) != nil {
                throw InputRejection(
                    reason: .invalidField,
                    detail: "a bare CloudEvent, not a fixture line: a line records a delivery, "
                        + #"{"exchange": …, "routingKey": …, "properties": {…}, "body": the event}"#
                        + " (responder record writes such lines)")
            }
            throw InputRejection(reason: .invalidField, detail: "not a fixture line: \(error)")
        }
    }
}

extension ReplaySummary {
    /// Counts one completed line; returns the problem to report, if any. Throws when the store was unavailable.
    mutating func count(
        _ event: NotificationResponseEvent?, _ outcome: ResponseOutcome, line: Int
    ) throws(ReplayStoreUnavailable) -> ReplayProblem? {
        events += 1
        if let event { actions[event.data.actionIdentifier.rawValue, default: 0] += 1 }
        switch outcome {
        case .completed(let produced, let disposition):
            outputs += produced.count
            switch disposition {
            case .updated: updated += 1
            case .noUpdate: noUpdate += 1
            case .ignored: ignored += 1
            case .deduplicated: deduplicated += 1
            }
            return nil
        case .deadLetter(let reason, let detail):
            deadLettered += 1
            return ReplayProblem(line: line, kind: .deadLettered(reason, detail: detail))
        case .failed(let error, let retryable):
            failed += 1
            return ReplayProblem(line: line, kind: .failed(detail: "\(error)", retryable: retryable))
        case .storeUnavailable(let unavailable):
            throw ReplayStoreUnavailable(line: line, unavailable: unavailable)
        }
    }
}
