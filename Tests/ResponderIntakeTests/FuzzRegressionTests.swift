import AMQP
import Foundation
import IntakeFuzzing
import NotificationEvents
import Responder
import ResponderIntake
import Testing

/// Every input the intake fuzzer (scripts/fuzz) ever crashed on, kept in Tests/Fuzz/regressions, and every
/// recorded fixture as the fuzzer's seeds see it, replayed through the same intake without the fuzzer: each must
/// pass the promises IntakeExercise checks (a trap fails the whole test run).
@Suite struct FuzzRegressionTests {
    static let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    static var regressions: [String] {
        let folder = fuzz.appendingPathComponent("regressions").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test func theRegressionFolderHoldsTheIssuesInputs() {
        #expect(Self.regressions.count >= 7)
    }

    @Test(arguments: regressions)
    func aFormerCrashRunsThroughTheIntake(name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.fuzz.appendingPathComponent("regressions/\(name)")))
        IntakeExercise.run(bytes)
    }

    @Test func everyFixtureLineRunsThroughTheIntakeAsASeed() throws {
        let fixtures = Self.fuzz.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
        let files = try #require(FileManager.default.enumerator(atPath: fixtures.path)).compactMap { $0 as? String }
        var seeds = 0
        var binarySeeds = 0
        for file in files where file.hasSuffix(".jsonl") {
            let text = try String(contentsOf: fixtures.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                guard let fixture = try? EventCodec.decodeFixtureLine(Array(line.utf8)) else { continue }
                let input = IntakeInput.bytes(fixture)
                let delivery = IntakeInput(input).delivery
                #expect(delivery.body == fixture.bodyBytes)
                #expect(delivery.routingKey == fixture.routingKey)
                IntakeExercise.run(input)
                seeds += 1
                if let binary = IntakeInput.binaryModeBytes(fixture) {
                    IntakeExercise.run(binary)
                    binarySeeds += 1
                    // The same event either way (or the same refusal).
                    let delivery = IntakeInput(binary).delivery
                    let properties = delivery.properties
                    let structured = try? EventCodec.decodeResponseEvent(fixture.bodyBytes)
                    let unbundled = try? EventCodec.decodeResponseEvent(
                        headers: properties.jsonHeaders, contentType: properties.contentType, body: delivery.body)
                    #expect(unbundled?.id == structured?.id && unbundled?.data == structured?.data)
                }
            }
        }
        #expect(seeds > 50)
        #expect(binarySeeds > 50)
    }

    @Test func theInputLayoutCarriesEveryPropertyTheIntakeReads() {
        let headers: FieldTable = ["t": .timestamp(.max), "n": .double(.nan), "deep": [["k": .void]], "raw": .rawString([0xFF])]
        let delivery = IntakeInput(
            IntakeInput.bytes(
                contentType: "application/json", contentEncoding: "gzip", messageID: "m\u{0}", timestamp: 1 << 63,
                routingKey: "red", headers: headers, body: [1, 2])
        ).delivery
        #expect(delivery.properties.contentType == "application/json")
        #expect(delivery.properties.contentEncoding == "gzip")
        #expect(delivery.properties.messageID == "m\u{0}")
        #expect(delivery.properties.timestamp == 1 << 63)
        #expect(delivery.properties.headers.keys == ["t", "n", "deep", "raw"])
        #expect(delivery.properties.headers["raw"] == .rawString([0xFF]))
        #expect(delivery.body == [1, 2])
    }
}
