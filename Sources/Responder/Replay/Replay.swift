import Foundation
import NotificationEvents

/// Offline replay: runs a recorded fixture through the same ``ResponsePipeline`` the broker worker uses, a batch of
/// lines at a time, without a broker, and writes the outputs as fixture lines.
///
/// Outputs are written in the order of the inputs that caused them, and they derive from the inputs alone, so the
/// same fixture always gives the same bytes. An event seen before (a redelivery) writes its stored outputs again,
/// as the worker republishes them.
public struct Replay: Sendable {
    /// The pipeline the fixture runs through.
    public var pipeline: ResponsePipeline
    /// How many notifications' handlers run at once within a batch.
    public var maxConcurrentNotifications: Int

    /// The most lines one batch of the pipeline takes: enough that a batch's one load and one commit serve many lines,
    /// few enough to bound memory.
    static let batchSize = 256

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
        var lines: [Line] = []
        var decoded: [DecodedInput] = []
        func emit() async throws {
            let outcomes = await pipeline.handle(decoded, concurrency: maxConcurrentNotifications)
            var handled = outcomes.makeIterator()
            for line in lines {
                let outcome = line.rejection ?? handled.next()!
                if let problem = try summary.count(line.action, outcome, line: line.number) { onProblem(problem) }
                for output in outcome.outputs {
                    try onOutput(EventCodec.encode(FixtureLine(published: output)))
                }
                onProgress(summary)
            }
            lines.removeAll(keepingCapacity: true)
            decoded.removeAll(keepingCapacity: true)
        }
        while let bytes = try reader.nextLine() {
            guard bytes.contains(where: { !Self.isBlank($0) }) else { continue }
            do throws(InputRejection) {
                let input = try pipeline.decode(InboundMessage(try Self.fixtureLine(bytes)))
                decoded.append(input)
                lines.append(
                    Line(number: reader.lineNumber, action: input.responseEvent?.data.actionIdentifier.rawValue, rejection: nil))
            } catch {
                lines.append(Line(number: reader.lineNumber, action: nil, rejection: error.outcome))
            }
            if lines.count == Self.batchSize { try await emit() }
        }
        try await emit()
        return summary
    }

    /// A line of the batch being replayed: its response's action (the summary counts them), or the outcome of its
    /// rejection. The action alone, not the event: copying and destroying a whole event per line cost about 2,500
    /// instructions a line.
    private struct Line {
        var number: Int
        var action: String?
        var rejection: ResponseOutcome?
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
    /// Counts one completed line, with the action of its response if it was one; returns the problem to report, if
    /// any. Throws when the store was unavailable.
    mutating func count(
        _ action: String?, _ outcome: ResponseOutcome, line: Int
    ) throws(ReplayStoreUnavailable) -> ReplayProblem? {
        events += 1
        if let action { actions[action, default: 0] += 1 }
        switch outcome {
        case .completed(let produced, let disposition):
            outputs += produced.count
            switch disposition {
            case .updated: updated += 1
            case .noUpdate: noUpdate += 1
            // A follow-up not due yet: a recording holds no later trip of it, so replay does nothing with it.
            case .ignored, .deferred: ignored += 1
            case .deduplicated: deduplicated += 1
            case .stale: stale += 1
            }
            return nil
        case .deadLetter(let reason, let detail):
            deadLettered += 1
            return ReplayProblem(line: line, kind: .deadLettered(reason, detail: detail))
        case .failed(let error, let retryable):
            failed += 1
            return ReplayProblem(line: line, kind: .failed(detail: "\(error)", retryable: retryable))
        case .dependencyUnavailable(let unavailable):
            // Replay does not wait for a dependency: the line failed, as it would have before the worker paused.
            failed += 1
            return ReplayProblem(line: line, kind: .failed(detail: "\(unavailable)", retryable: true))
        case .storeUnavailable(let unavailable):
            throw ReplayStoreUnavailable(line: line, unavailable: unavailable)
        }
    }
}
