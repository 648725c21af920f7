import BrokerHarness
import Foundation
import NotificationEvents
import Responder
import Testing
import WorkerHarness

@testable import ResponderCommands

/// `watch` prints each kind of message the worker publishes as a line a person reads: updates, dismissals and
/// removals in both content modes, what handlers send and dead letters; never a body that may hold userText.
@Suite struct WatchLineTests {
    static let chatFixtures = Paths.root.appendingPathComponent("Examples/CustomHandlers/Fixtures")

    /// Each golden output of the RedGreen sessions and of the chat example (which sends replies), as watch shows it.
    static func goldenLines() throws -> [(output: FixtureLine, line: String)] {
        let goldens = Paths.sessions.map(Paths.golden) + [chatFixtures.appendingPathComponent("chat.golden.jsonl")]
        return try goldens.flatMap(QueueProbe.lines(of:)).map { ($0, WatchCommand.line(for: InboundMessage($0))) }
    }

    /// What users typed in the chat session: none of it may reach watch's lines.
    static func typedTexts() throws -> [String] {
        let session = try String(contentsOf: chatFixtures.appendingPathComponent("chat.jsonl"), encoding: .utf8)
        return session.matches(of: /"userText":"([^"]+)"/).map { String($0.output.1) }
    }

    @Test func everyOutputKindHasALineOfItsOwn() throws {
        var kinds: [String: Int] = [:]
        for (output, line) in try Self.goldenLines() {
            let type = output.properties.type ?? ""
            switch type {
            case EventType.actionSetUpdated:
                let update = try EventCodec.decodeActionSetUpdateEvent(output.bodyBytes).data
                let buttons = update.actions.map { "[\($0.title)]" }.joined(separator: " ")
                #expect(line.hasPrefix(update.requestIdentifier + "  "), "\(line)")
                #expect(line.hasSuffix("  →  " + (buttons.isEmpty ? "(no buttons)" : buttons)), "\(line)")
            case EventType.notificationDismissed:
                let command = try EventCodec.decodeDeviceCommandEvent(output.bodyBytes, as: Dismissal.self).data
                #expect(line.hasPrefix(command.requestIdentifier + "  ") && line.hasSuffix("  →  dismiss"), "\(line)")
            case EventType.notificationRemoved:
                let command = try EventCodec.decodeDeviceCommandEvent(output.bodyBytes, as: Removal.self).data
                #expect(line.hasPrefix(command.requestIdentifier + "  ") && line.hasSuffix("  →  remove"), "\(line)")
            default:
                let id = output.properties.messageID ?? ""
                #expect(
                    line == "\(id)  →  message \(type) to \(output.exchange) (routing key \(output.routingKey)): "
                        + "\(output.bodyBytes.count) bytes, not shown", "\(line)")
            }
            kinds[type, default: 0] += 1
        }
        #expect(
            Set(kinds.keys) == [
                EventType.actionSetUpdated, EventType.notificationDismissed, EventType.notificationRemoved, "chat.reply.v1",
            ], "\(kinds)")
    }

    @Test func noLineShowsWhatAUserTyped() throws {
        let typed = try Self.typedTexts()
        #expect(!typed.isEmpty)
        for (_, line) in try Self.goldenLines() {
            #expect(!typed.contains { line.contains($0) }, "\(line)")
        }
    }

    /// `--output-mode binary`: the attributes in headers, the data as the body; the same line as structured mode.
    @Test func binaryModeOutputsReadAsStructuredOnes() throws {
        let outputs = try Self.goldenLines().filter { $0.output.exchange == "notifications.action-updates" }
        #expect(outputs.count > 10)
        for (output, structuredLine) in outputs {
            let document = try EventCodec.decode(JSONValue.self, from: output.bodyBytes)
            let event = try EventCodec.decode(CloudEvent<JSONValue>.self, from: output.bodyBytes)
            guard case .object(let members) = document, let data = members["data"] else {
                Issue.record("no data in \(output)")
                continue
            }
            var properties = output.properties
            for (name, value) in BinaryModeHeaders.headers(of: event) { properties.headers[name] = FieldValue(value) }
            properties.contentType = EventContentType.json
            let binary = InboundMessage(
                exchange: output.exchange, routingKey: output.routingKey, body: EventCodec.encode(data),
                properties: properties, redelivered: false)
            #expect(WatchCommand.line(for: binary) == structuredLine)
        }
    }

    /// The mode is the binding's (`EventContentMode`), as the worker reads it: a structured output that also carries
    /// an extension attribute as a `cloudEvents_` header (a trace context) still shows its buttons, and a binary one
    /// whose attributes use the binding's first prefix, `cloudEvents:`, shows them too.
    @Test func theModeIsReadAsTheBindingSays() throws {
        let (output, structuredLine) = try #require(
            try Self.goldenLines().first { $0.output.exchange == "notifications.action-updates" })
        var properties = output.properties
        properties.headers["cloudEvents_traceparent"] = .string("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
        let structured = InboundMessage(
            exchange: output.exchange, routingKey: output.routingKey, body: output.bodyBytes, properties: properties,
            redelivered: false)
        #expect(WatchCommand.line(for: structured) == structuredLine)

        let event = try EventCodec.decode(CloudEvent<JSONValue>.self, from: output.bodyBytes)
        properties = output.properties
        for (name, value) in BinaryModeHeaders.headers(of: event) {
            properties.headers["cloudEvents:" + name.dropFirst(BinaryModeHeaders.prefix.count)] = FieldValue(value)
        }
        properties.contentType = EventContentType.json
        let binary = InboundMessage(
            exchange: output.exchange, routingKey: output.routingKey, body: EventCodec.encode(event.data),
            properties: properties, redelivered: false)
        #expect(WatchCommand.line(for: binary) == structuredLine)
    }

    /// A dead letter carries its input, userText and all: watch shows its failure, not its body.
    @Test func aDeadLetterShowsItsFailureNotItsBody() throws {
        let input = try #require(try QueueProbe.lines(of: Self.chatFixtures.appendingPathComponent("chat.jsonl"))
            .first { String(decoding: $0.bodyBytes, as: UTF8.self).contains("userText") })
        let info = DeadLetterInfo(
            reason: .handlerFailed, detail: "the handler threw ChatError.unavailable", originalExchange: input.exchange,
            originalRoutingKey: input.routingKey, attempts: 4, firstFailure: Date(timeIntervalSince1970: 0),
            lastFailure: Date(timeIntervalSince1970: 60), worker: "vm-1")
        var properties = input.properties
        for (name, value) in info.headers { properties.headers[name] = FieldValue(value) }
        let deadLetter = InboundMessage(
            exchange: "responder.dead-letter", routingKey: input.routingKey, body: input.bodyBytes,
            properties: properties, redelivered: false)
        let line = WatchCommand.line(for: deadLetter)
        #expect(
            line == "\(input.properties.messageID ?? "")  ✗  dead-lettered (handler-failed) after 4 attempts: "
                + "the handler threw ChatError.unavailable")
        #expect(try !Self.typedTexts().contains { line.contains($0) }, "\(line)")
    }
}
