import Foundation
import NotificationEvents
import RedGreenExample
import Responder
import ResponderSQLite
import Testing
import WorkerHarness

/// The sample's rules: a reset button after the first tap, gone at every full turn, back on the tap after.
@Suite struct RotationTests {
    let rotate = RedGreen.rotateActionIdentifier
    let reset = RedGreen.resetActionIdentifier

    private func pipeline(_ store: any StateStore = InMemoryStateStore()) -> ResponsePipeline {
        ResponsePipeline(registry: RedGreen.makeRegistry(), store: store, logger: .quiet)
    }

    @Test(arguments: [RedGreen.redCategoryIdentifier, RedGreen.greenCategoryIdentifier])
    func tapsPastNineAndEighteen(category: String) async throws {
        let pipeline = pipeline()
        var updates: [Int: [[String]]] = [:]
        for tap in 1...20 {
            let outcome = await pipeline.process(RedGreenTaps.message("tap-\(tap)", rotate, category: category))
            let sets = try RedGreenTaps.actionSets(outcome)
            if !sets.isEmpty { updates[tap] = sets }
            guard case .completed(_, let disposition) = outcome else {
                Issue.record("tap \(tap) did not complete: \(outcome)")
                continue
            }
            #expect(disposition == (sets.isEmpty ? .noUpdate : .updated))
        }
        #expect(
            updates == [
                1: [[rotate, reset]], 9: [[rotate]], 10: [[rotate, reset]], 18: [[rotate]], 19: [[rotate, reset]],
            ])
    }

    @Test func resetStartsTheCountAgain() async throws {
        let pipeline = pipeline()
        for tap in 1...5 { _ = await pipeline.process(RedGreenTaps.message("tap-\(tap)", rotate)) }
        #expect(try RedGreenTaps.actionSets(await pipeline.process(RedGreenTaps.message("reset", reset))) == [[rotate]])
        #expect(try RedGreenTaps.actionSets(await pipeline.process(RedGreenTaps.message("again-1", rotate))) == [[rotate, reset]])
        for tap in 2...8 {
            #expect(try RedGreenTaps.actionSets(await pipeline.process(RedGreenTaps.message("again-\(tap)", rotate))).isEmpty)
        }
        #expect(try RedGreenTaps.actionSets(await pipeline.process(RedGreenTaps.message("again-9", rotate))) == [[rotate]])
    }

    @Test func everyUpdateKeepsTheNotificationOnScreenWithTheActionsTitles() async throws {
        let outcome = await pipeline().process(RedGreenTaps.message("tap-1", rotate))
        let update = try #require(outcome.outputs.first).update
        #expect(update.data.responseOption == .doNotDismiss)
        #expect(
            update.data.actions == [
                NotificationAction(identifier: rotate, title: "Rotate 20°"),
                NotificationAction(identifier: reset, title: "Reset rotation"),
            ])
    }

    @Test func eachNotificationCountsItsOwnTaps() async throws {
        let pipeline = pipeline()
        for tap in 1...8 { _ = await pipeline.process(RedGreenTaps.message("red-\(tap)", rotate, request: "red-1")) }
        let green = await pipeline.process(
            RedGreenTaps.message("green-1", rotate, request: "green-1", category: RedGreen.greenCategoryIdentifier))
        #expect(try RedGreenTaps.actionSets(green) == [[rotate, reset]])
        let red = await pipeline.process(RedGreenTaps.message("red-9", rotate, request: "red-1"))
        #expect(try RedGreenTaps.actionSets(red) == [[rotate]])
    }

    @Test func tapsSurviveARestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("red-green-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("state.sqlite").path
        let before = try SQLiteStateStore(path: path)
        for tap in 1...8 { _ = await pipeline(before).process(RedGreenTaps.message("tap-\(tap)", rotate)) }
        try before.close()

        let after = try SQLiteStateStore(path: path)
        let ninth = await pipeline(after).process(RedGreenTaps.message("tap-9", rotate))
        #expect(try RedGreenTaps.actionSets(ninth) == [[rotate]])
        let record = try #require(try await after.notification("red-1"))
        let state = try EventCodec.decodeStored(
            RotationExtension.State.self, from: #require(record.handlerStates["red-green-rotation"]))
        #expect(state == RotationExtension.State(taps: 9))
        try after.close()
    }
}
