import Foundation
import NotificationEvents
import Testing

/// The schemas and the Swift decoder agree on every document of the corpus, and each refuses an invalid document
/// for the rule the document is named after.
@Suite struct CorpusAgreementTests {
    @Test func everySchemaIsAValidDraft202012Schema() throws {
        let report = try schemaHarnessReport.get()
        #expect(report.schemas.keys.sorted() == ContractFiles.schemaNames)
        for (name, problem) in report.schemas {
            #expect(problem == nil, "\(name): \(problem ?? "")")
        }
    }

    @Test(arguments: CorpusDocument.all)
    func swiftDecoderAndJSONSchemaGiveTheSameVerdict(document: CorpusDocument) throws {
        let report = try schemaHarnessReport.get()
        let schemaVerdict = try #require(report.documents[document.key], "validate.py did not judge \(document.key)")
        #expect(schemaVerdict.valid == document.isExpectedValid, "jsonschema: \(schemaVerdict.reason)")
        guard document.isReadHere else { return }
        let swiftError = try document.swiftVerdict()
        #expect(schemaVerdict.valid == (swiftError == nil),
                "jsonschema: \(schemaVerdict.valid ? "valid" : schemaVerdict.reason); Swift: \(swiftError.map(String.init(describing:)) ?? "valid")")
    }

    /// The expected errors double as a record of what a sender reads for each broken rule.
    @Test(arguments: CorpusDocument.invalid.filter(\.isReadHere))
    func swiftDecoderRefusesForTheNamedRule(document: CorpusDocument) throws {
        let expected = try #require(Self.expectedErrors[document.key], "no expected error for \(document.key)")
        #expect(try document.swiftVerdict()?.description == expected)
    }

    @Test func corpusBreaksRulesOfEveryDocumentKind() {
        #expect(CorpusDocument.invalid.count >= 30)
        #expect(Set(CorpusDocument.invalid.map(\.kind)) == Set(Self.kinds))
        #expect(Set(CorpusDocument.all.filter(\.isExpectedValid).map(\.kind)) == Set(Self.kinds))
        #expect(Set(Self.expectedErrors.keys) == Set(CorpusDocument.invalid.map(\.key)))
    }

    private static let kinds = ContractFiles.schemaNames.map { String($0.prefix { $0 != "." }) } 
        + ["binary-notification-response", "binary-notification-lifecycle"]

    private static let expectedErrors: [String: String] = {
        let url = ContractFiles.corpus.appendingPathComponent("expected-errors.json")
        return (try? JSONDecoder().decode([String: String].self, from: Data(contentsOf: url))) ?? [:]
    }()
}
