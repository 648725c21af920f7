import BrokerHarness
import Foundation
import NotificationEvents
import Responder
import Testing

/// The fixture documents of the contract's agreement corpus (Tests/NotificationEventsTests/Corpus, which the fixture
/// schema judges there): replay's reader accepts each valid one and refuses each invalid one for the rule it is
/// named after, with the error the corpus expects.
@Suite struct FixtureCorpusTests {
    static let corpus = Paths.root.appendingPathComponent("Tests/NotificationEventsTests/Corpus")

    /// The fixture documents of `folder` (`valid` or `invalid`), by name.
    static func documents(_ folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(
            atPath: corpus.appendingPathComponent(folder).path)) ?? []
        return names.filter { $0.hasPrefix("fixture.") && $0.hasSuffix(".json") }.sorted()
    }

    static func read(_ folder: String, _ name: String) throws -> Result<FixtureLine, EventDecodingError> {
        let body = try Data(contentsOf: corpus.appendingPathComponent(folder).appendingPathComponent(name))
        return Result { () throws(EventDecodingError) in try EventCodec.decodeFixtureLine(body) }
    }

    @Test func readsEveryValidDocument() throws {
        let names = Self.documents("valid")
        #expect(!names.isEmpty)
        for name in names {
            if case .failure(let error) = try Self.read("valid", name) { Issue.record("valid/\(name): \(error)") }
        }
    }

    @Test func refusesEveryInvalidDocumentForItsRule() throws {
        let expected = try JSONDecoder().decode(
            [String: String].self, from: Data(contentsOf: Self.corpus.appendingPathComponent("expected-errors.json")))
        let names = Self.documents("invalid")
        #expect(names.count >= 10)
        for name in names {
            let error = try #require(expected["invalid/\(name)"], "no expected error for invalid/\(name)")
            switch try Self.read("invalid", name) {
            case .success: Issue.record("invalid/\(name) was read")
            case .failure(let refusal): #expect(refusal.description == error, "invalid/\(name)")
            }
        }
    }
}
