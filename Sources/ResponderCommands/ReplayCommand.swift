import AMQP
import ArgumentParser
import Foundation
import Logging
import Responder
import ResponderWorker

/// `replay`: runs a recorded fixture through the pipeline offline and writes its outputs.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a recorded fixture through the handlers, without a broker.",
        discussion: """
            Each line of FIXTURE (JSON Lines, one recorded delivery per line) goes through the same pipeline the \
            worker runs; the action-set updates it produces are written as fixture lines, in input order (with \
            --expect, only when --out names a file). Lines that cannot be handled are reported on stderr with \
            their line number and counted as dead-lettered. \
            The program's categories and handlers are registered. The state is in memory unless --state or \
            --state-file names a store; RESPONDER_STATE and RESPONDER_STATE_FILE are never read, so a replay in a \
            worker's environment cannot write into its store. A summary ends the run on stderr. \
            The exit status is 1 when --expect finds a difference, when any line was dead-lettered or failed \
            (unless --allow-dead-letters), and when no line could be handled (every one dead-lettered or failed, \
            --allow-dead-letters or not). With --expect and a store that outlives the run, events the store's inbox \
            answers are named in a warning: their outputs are stored ones, not the handlers'.
            """)

    @Argument(help: "The fixture to replay (JSON Lines).", completion: .file(extensions: ["jsonl"]))
    var fixture: String

    @OptionGroup(title: "Handlers and state") var handlers: HandlerOptions<ReplayStateOption>

    @Option(help: "Where the outputs go (default: stdout; with --expect, nowhere).")
    var out: String?

    @Flag(help: "Exit 0 even when lines were dead-lettered or failed, as long as some line was handled.")
    var allowDeadLetters = false

    @OptionGroup(title: "Handler calls") var calls: HandlerCallOptions

    @Option(name: Settings.concurrency.name, help: Settings.concurrency.help) var concurrency: String?
    @Option(name: Settings.expect.name, help: Settings.expect.help) var expect: String?
    @Option(name: Settings.replayLogLevel.name, help: Settings.replayLogLevel.help) var logLevel: String?

    func run() async throws {
        let environment = EnvironmentFallback()
        let logger = bootstrapLogging(level: try Settings.replayLogLevel.resolve(logLevel, environment))
        try ReadableFile.check(fixture, as: "FIXTURE")
        let expect = try Settings.expect.resolveOptional(self.expect, environment)
        // The handlers run under the limits the worker gives them (a dependency outage fails its line).
        var configuration = PipelineConfiguration()
        try calls.apply(to: &configuration, environment)
        // As many notifications' handlers at once within a batch as `run` runs.
        let concurrency = try Settings.concurrency.resolve(self.concurrency, environment)
        let registry = try handlers.makeRegistry(environment, registration: Program.current.registration)
        let state = try await handlers.openStore(environment, logger: logger)
        let service = Task { try await state.service?.run() }
        defer {
            service.cancel()
            try? state.close()
        }
        // Outputs are checked as the worker checks them, against the limits of a default connection: an event the
        // worker would dead-letter as unpublishable is dead-lettered here too, with nothing stored.
        configuration.checkPublishability(against: AMQPConfiguration().publishLimits)
        let pipeline = ResponsePipeline(registry: registry, store: state.store, configuration: configuration)

        // With --expect the outputs are for the comparison; printed too, they would bury its verdict.
        let sink = try expect != nil && out == nil ? OutputSink.keepingLinesOnly() : OutputSink(path: out, keepsLines: expect != nil)
        let progress = ProgressLine()
        let summary = try await Replay(pipeline: pipeline, maxConcurrentNotifications: concurrency).run(
            fixture: URL(fileURLWithPath: fixture), onOutput: sink.write,
            onProblem: { problem in
                progress.clear()
                standardError("replay: \(problem)")
            },
            onProgress: progress.show)
        try sink.close()
        progress.clear()
        standardError("replay: \(summary)")
        if summary.events > 0, summary.deadLettered + summary.failed == summary.events {
            standardError("replay: no event was handled: every line was dead-lettered or failed (the lines above say why)")
            throw ExitCode(1)
        }
        // An inbox that outlives the run answers from what it stored: outputs of earlier handlers, not these.
        if expect != nil, summary.deduplicated > 0, try handlers.store.location(environment) != .memory {
            standardError(
                "replay: warning: \(summary.deduplicated) events were answered from the state store's inbox, not by "
                    + "the handlers; to test the handlers, replay into a fresh store (without --state, in memory)")
        }

        let matches = try expect.map { try compare(sink.lines, withGolden: $0) } ?? true
        // A fixture written by hand with a broken line must fail the CI job that replays it, golden or not.
        let unhandled = summary.deadLettered + summary.failed
        if unhandled > 0, !allowDeadLetters {
            standardError(
                "replay: \(unhandled) lines were dead-lettered or failed (the lines above say why); "
                    + "--allow-dead-letters to accept them")
        }
        if !matches || (unhandled > 0 && !allowDeadLetters) { throw ExitCode(1) }
    }

    /// Says whether the outputs match the golden at `path`, with a diff on stderr when they do not.
    private func compare(_ lines: [String], withGolden path: String) throws -> Bool {
        if let diff = try LineDiff.describe(lines, againstGoldenAt: path) {
            standardError("replay: the outputs differ from \(path)\n\(diff)")
            return false
        }
        standardError("replay: the outputs match \(path)")
        return true
    }
}
