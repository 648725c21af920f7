import Foundation
import Responder
import ResponderSQLite
import WorkerHarness

/// A state file crowded with old inbox entries, for the tests where it fills up under a worker: a day old, inside
/// the worker's own retention (7 days), so the worker's pruning keeps them and only the test's pruning makes room.
enum CrowdedState {
    /// How many old entries ``create(at:)`` writes.
    static let oldEntries = 3_000

    /// Writes the old entries into a new state file at `path` and returns its size in bytes.
    static func create(at path: String) async throws -> Int {
        let filler = try SQLiteStateStore(path: path)
        let dayAgo = Date().addingTimeInterval(-86_400)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for start in stride(from: 0, to: oldEntries, by: 100) {
                group.addTask {
                    for n in start..<start + 100 {
                        let output = OutboundMessage(
                            exchange: "old", routingKey: "old", body: Array(repeating: 0x6F, count: 1_000),
                            properties: MessageProperties(messageID: "old-\(n)"))
                        let entry = InboxEntry(source: "/tests", eventID: "old-\(n)", requestIdentifier: "old", outputs: [output], processedAt: dayAgo)
                        _ = try await filler.commit(StateCommit(inboxEntry: entry, notification: nil))
                    }
                }
            }
            try await group.waitForAll()
        }
        try filler.close()
        guard let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int else {
            throw CocoaError(.fileReadUnknown)
        }
        return size
    }

    /// Prunes the old entries from the state file at `path`, as an operator freeing room would; returns how many.
    static func makeRoom(at path: String) async throws -> Int {
        let pruner = try SQLiteStateStore(path: path)
        defer { try? pruner.close() }
        return try await pruner.pruneInbox(processedBefore: Date().addingTimeInterval(-3_600))
    }
}
