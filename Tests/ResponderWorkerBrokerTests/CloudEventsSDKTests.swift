import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import ResponderIntake
import Responder
import Testing
import WorkerHarness

/// The official CloudEvents Python SDK on both sides of a real `responder run`: the events of a recorded session, as
/// the SDK writes them in structured mode and in binary mode (the AMQP binding's `cloudEvents_` and `cloudEvents:`
/// headers, the RabbitMQ binding's `ce-` headers), give exactly the session's golden updates, which the SDK reads
/// back in either output mode.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct CloudEventsSDKTests {
    private struct Produced: Decodable {
        var mode: String
        var routingKey: String
        var contentType: String?
        var headers: [String: JSONValue]
        var body: String
    }

    private struct Parsed: Decodable, Equatable {
        var attributes: [String: String]
        var data: ActionSetUpdate
    }

    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("cloudevents_sdk.py")

    @Test(arguments: EventContentMode.allCases)
    func sdkEventsGoThroughAndTheSDKReadsTheUpdates(outputMode: EventContentMode) async throws {
        let produced = try await Self.sdk(["produce", Paths.session("rotations").path]).map {
            try JSONDecoder().decode(Produced.self, from: Data($0.utf8))
        }
        #expect(Set(produced.map(\.mode)) == ["structured", "binary", "binary-colon", "binary-rabbitmq"])

        let topology = TestTopology("sdk-\(outputMode)")
        let probe = try await QueueProbe.open(topology)
        let folder = try Paths.temporaryFolder()
        let worker = try WorkerProcess(
            topology: topology, statePath: folder.appendingPathComponent("state.sqlite").path,
            arguments: ["--output-mode", outputMode.rawValue])
        try await worker.waitUntilReady()
        for message in produced {
            var properties = MessageProperties(headers: FieldTable(json: message.headers))
            properties.contentType = message.contentType
            try await probe.publish(
                body: Array(try #require(Data(base64Encoded: message.body))), properties: properties,
                routingKey: message.routingKey)
        }
        let goldenLines = try QueueProbe.lines(of: Paths.golden("rotations"))
        let golden = try goldenLines.map { try EventCodec.decodeActionSetUpdateEvent($0.bodyBytes) }
        let updates = try await probe.takeUpdates(golden.count)

        let decoded = try updates.map { update in
            let properties = update.properties
            switch outputMode {
            case .structured:
                #expect(properties.contentType == EventContentType.cloudEvents)
                #expect(!properties.headers.keys.contains { BinaryModeHeaders.attribute(ofHeader: $0) != nil })
                return try EventCodec.decodeActionSetUpdateEvent(update.body)
            case .binary:
                #expect(properties.contentType == EventContentType.json)
                return try EventCodec.decodeActionSetUpdateEvent(
                    headers: properties.jsonHeaders, contentType: properties.contentType, body: update.body)
            }
        }
        // One notification, so its updates arrive in order.
        #expect(decoded == golden)

        let outputs = updates.map { update in
            let properties = update.properties
            let line: [String: JSONValue] = [
                "contentType": properties.contentType.map(JSONValue.string) ?? .null,
                "headers": .object(properties.jsonHeaders), "body": .string(Data(update.body).base64EncodedString()),
            ]
            return String(decoding: EventCodec.encode(line), as: UTF8.self)
        }
        let parsed = try await Self.sdk(["parse"], input: outputs.joined(separator: "\n") + "\n").map {
            try JSONDecoder().decode(Parsed.self, from: Data($0.utf8))
        }
        // The golden events' attributes as their JSON spells them (time in RFC 3339, as the SDK writes it back).
        let expected = try zip(goldenLines, golden).map { line, event in
            let body = try EventCodec.decode([String: JSONValue].self, from: line.bodyBytes)
            let attributes = body.filter { $0.key != "data" }.compactMapValues { value -> String? in
                if case .string(let text) = value { return text }
                return nil
            }
            return Parsed(attributes: attributes, data: event.data)
        }
        #expect(parsed == expected)

        worker.send(SIGTERM)
        #expect(try await worker.waitForExit() == 0)
        await probe.cleanUp()
    }

    /// The script's output lines; `input` goes to its stdin.
    private static func sdk(_ arguments: [String], input: String = "") async throws -> [String] {
        let folder = try Paths.temporaryFolder("cloudevents-sdk")
        let inputFile = folder.appendingPathComponent("input.jsonl")
        try input.write(to: inputFile, atomically: true, encoding: .utf8)
        let command = (["python3", script.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let result = try await ChildProcess.run(
            URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "\(command) < '\(inputFile.path)'"])
        try #require(result.status == 0, "cloudevents_sdk.py \(arguments.joined(separator: " ")): \(result.output)")
        return result.output.split(separator: "\n").map(String.init)
    }
}
