import AMQP
import ArgumentParser
import Foundation
import NotificationEvents
import Responder
import ResponderWorker

/// `publish`: feeds a broker from a fixture, with publisher confirms.
struct PublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Publish a fixture's messages to the broker, each confirmed.",
        discussion: """
            Each line goes to its recorded exchange and routing key with its recorded properties; a line that \
            is not a fixture line is reported and skipped. Publishes are mandatory: a line the exchange routes \
            to no queue comes back from the broker and is reported as unroutable with its line number; the \
            other lines are still published, and the command then exits with status 1. With --repeat, \
            every pass after the first gives event ids (and message ids) a -rN suffix, so they are new events \
            rather than duplicates the inbox would skip.
            """)

    @OptionGroup(title: "Broker") var broker: BrokerOptions

    @Argument(help: "The fixture to publish (JSON Lines).", completion: .file(extensions: ["jsonl"]))
    var fixture: String

    @Option(name: Settings.rate.name, help: Settings.rate.help) var rate: String?
    @Option(name: Settings.repeatCount.name, help: Settings.repeatCount.help) var `repeat`: String?
    @Option(name: Settings.window.name, help: Settings.window.help) var window: String?

    func run() async throws {
        let logger = bootstrapLogging(level: .warning)
        let environment = EnvironmentFallback()
        let rate = try Settings.rate.resolveOptional(self.rate, environment)
        let passes = try Settings.repeatCount.resolve(`repeat`, environment)
        let window = try Settings.window.resolve(self.window, environment)
        try ReadableFile.check(fixture, as: "FIXTURE")
        let url = URL(fileURLWithPath: fixture)
        let linesPerPass = try FixtureLines.count(url)
        let connection = try await broker.connect(environment, name: "publish", logger: logger)
        let channel = try await connection.openChannel()
        try await channel.enablePublisherConfirms()
        let progress = PublishProgress(total: linesPerPass * passes)
        var pending: [(line: Int, pass: Int, confirmation: PublishConfirmation)] = []
        pending.reserveCapacity(window)
        let start = ContinuousClock.now
        var sent = 0
        var unroutable = 0
        // Waits for every pending outcome; a returned line is reported, anything else ends the command.
        func settle() async throws {
            for (line, pass, confirmation) in pending {
                do {
                    try await confirmation.confirmed()
                } catch .returned(let code, let text) {
                    unroutable += 1
                    let which = passes > 1 ? " (pass \(pass + 1))" : ""
                    standardError("publish: \(fixture):\(line)\(which) unroutable: the broker returned it (\(code) \(text))")
                }
            }
            pending.removeAll(keepingCapacity: true)
        }
        for pass in 0..<passes {
            var reader = try FixtureReader(url: url)
            while let bytes = try reader.nextLine() {
                guard !bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else { continue }
                let line: FixtureLine
                do {
                    line = try EventCodec.decodeFixtureLine(bytes)
                } catch {
                    // A line that is no delivery at all has nothing to publish; say so and go on, as replay does.
                    if pass == 0 { standardError("publish: \(fixture):\(reader.lineNumber) skipped: \(error)") }
                    continue
                }
                let message = pass == 0 ? line : line.renamed(suffix: "-r\(pass)")
                let confirmation = try channel.publishPipelined(
                    message.bodyBytes, exchange: message.exchange, routingKey: message.routingKey, mandatory: true,
                    properties: message.properties)
                pending.append((reader.lineNumber, pass, confirmation))
                sent += 1
                if pending.count >= window {
                    try await settle()
                    progress.show(sent)
                }
                if let rate {
                    let due = start + .seconds(Double(sent) / rate)
                    if due > .now { try await Task.sleep(until: due) }
                }
            }
        }
        try await settle()
        progress.finish(sent - unroutable)
        await connection.close()
        if unroutable > 0 {
            standardError("publish: \(unroutable) unroutable, not published")
            throw ExitCode(1)
        }
    }
}
