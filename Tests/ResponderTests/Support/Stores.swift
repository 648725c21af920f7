import Foundation
import Responder
import Testing

/// A folder of its own for one test, removed when the test is done with it.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("responder-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// The store implementations every store-level behaviour is checked against.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case memory, sqlite

    var testDescription: String { rawValue }

    /// A fresh store; the directory keeps an SQLite file alive for as long as the test holds it.
    func make(in directory: TemporaryDirectory) throws -> any StateStore {
        switch self {
        case .memory: InMemoryStateStore()
        case .sqlite: try SQLiteStateStore(path: directory.path("state.sqlite"))
        }
    }
}
