import Foundation
import NotificationEvents
import Testing

/// The contract's files in the source tree. Tests read them in place (through `#filePath`), so they work from a
/// fresh clone without bundling resources.
enum ContractFiles {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let corpus = testsDirectory.appendingPathComponent("Corpus")
    static let harness = testsDirectory.appendingPathComponent("validate.py")
    static let schemas = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Schemas")
    static let schemaNames = [
        "action-set-update.v1.schema.json", "dead-letter.v1.schema.json", "fixture.v1.schema.json",
        "notification-categories.v1.schema.json", "notification-dismissed.v1.schema.json",
        "notification-lifecycle.v1.schema.json", "notification-removed.v1.schema.json",
        "notification-response.v1.schema.json",
    ]
}

/// One document of the agreement corpus: `valid/` or `invalid/`, named `<kind>.<rule or case>.json`, where the kind
/// names the schema that judges it; `binary-<kind>` documents are messages in binary content mode, judged as the
/// structured events they stand for.
struct CorpusDocument: Sendable, CustomTestStringConvertible {
    let folder: String
    let name: String

    var key: String { "\(folder)/\(name)" }
    var kind: String { String(name.prefix { $0 != "." }) }
    var isExpectedValid: Bool { folder == "valid" }
    var testDescription: String { key }

    static let all: [CorpusDocument] = ["valid", "invalid"].flatMap { folder in
        let names = (try? FileManager.default.contentsOfDirectory(
            atPath: ContractFiles.corpus.appendingPathComponent(folder).path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { CorpusDocument(folder: folder, name: $0) }
    }

    static var invalid: [CorpusDocument] { all.filter { !$0.isExpectedValid } }

    /// Whether the contract's decoder reads this kind. A fixture line is replay's format, read in Responder:
    /// ResponderTests' FixtureCorpusTests holds that reader to the valid documents and the expected errors.
    var isReadHere: Bool { kind != "fixture" }

    func bytes() throws -> Data {
        try Data(contentsOf: ContractFiles.corpus.appendingPathComponent(folder).appendingPathComponent(name))
    }

    /// The Swift decoder's verdict: nil when it accepts the document, else why it refuses it.
    func swiftVerdict() throws -> EventDecodingError? {
        let body = try bytes()
        do {
            switch kind {
            case "notification-response": _ = try EventCodec.decodeResponseEvent(body)
            case "binary-notification-response":
                let message = try JSONDecoder().decode(BinaryModeMessage.self, from: body)
                _ = try EventCodec.decodeResponseEvent(
                    headers: message.headers, contentType: message.contentType, body: Array(message.body.utf8))
            case "notification-lifecycle": _ = try EventCodec.decodeLifecycleEvent(body)
            case "binary-notification-lifecycle":
                let message = try JSONDecoder().decode(BinaryModeMessage.self, from: body)
                _ = try EventCodec.decodeLifecycleEvent(
                    headers: message.headers, contentType: message.contentType, body: Array(message.body.utf8))
            case "action-set-update": _ = try EventCodec.decodeActionSetUpdateEvent(body)
            case "notification-dismissed": _ = try EventCodec.decodeDeviceCommandEvent(body, as: Dismissal.self)
            case "notification-removed": _ = try EventCodec.decodeDeviceCommandEvent(body, as: Removal.self)
            case "notification-categories": _ = try EventCodec.decodeCategories(body)
            case "dead-letter": _ = try EventCodec.decodeDeadLetterInfo(body)
            default: throw UnknownKind(name: name)
            }
            return nil
        } catch let error as EventDecodingError {
            return error
        }
    }

    /// A message in binary content mode as a corpus document writes it: the body as text.
    struct BinaryModeMessage: Decodable {
        var contentType: String?
        var headers: [String: JSONValue]
        var body: String
    }

    struct UnknownKind: Error, CustomStringConvertible {
        let name: String
        var description: String { "\(name) does not start with the name of a schema" }
    }
}
