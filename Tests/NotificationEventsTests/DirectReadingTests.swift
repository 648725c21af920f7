import Foundation
@testable import NotificationEvents
import Testing

/// The input event's direct reader (`NotificationResponseJSON.swift`) never changes a verdict: on every document,
/// `decodeResponseEvent` (the direct reader, then the strict decoder for what it does not accept) gives exactly
/// what the strict decoder alone gives, the same event or the same error, in both content modes.
@Suite struct DirectReadingTests {
    typealias Outcome = Result<NotificationResponseEvent, EventDecodingError>

    static func outcomes(_ body: [UInt8]) -> (direct: Outcome, strict: Outcome) {
        (Result { () throws(EventDecodingError) in try EventCodec.decodeResponseEvent(body) },
         Result { () throws(EventDecodingError) in try EventCodec.decodeResponseEventStrictly(body) })
    }

    static func binaryOutcomes(headers: [String: JSONValue], contentType: String?, body: [UInt8]) -> (direct: Outcome, strict: Outcome) {
        (Result { () throws(EventDecodingError) in
            try EventCodec.decodeResponseEvent(headers: headers, contentType: contentType, body: body)
        },
         Result { () throws(EventDecodingError) in
            try EventCodec.decodeResponseEventStrictly(headers: headers, contentType: contentType, body: body)
        })
    }

    /// Whether the direct reader itself accepts `body` (rather than handing it to the strict decoder).
    static func isReadDirectly(_ body: [UInt8]) -> Bool {
        guard let tape = try? StrictJSONParser.parse(body) else { return false }
        return EventCodec.directlyReadResponseEvent(tape) != nil
    }

    static let responseDocuments = CorpusDocument.all.filter { $0.kind == "notification-response" }
    static let binaryDocuments = CorpusDocument.all.filter { $0.kind == "binary-notification-response" }

    @Test(arguments: responseDocuments)
    func bothReadersGiveTheSameVerdictOnTheCorpus(document: CorpusDocument) throws {
        let (direct, strict) = Self.outcomes(Array(try document.bytes()))
        #expect(direct == strict)
        #expect(((try? strict.get()) != nil) == document.isExpectedValid)
    }

    @Test(arguments: binaryDocuments)
    func bothReadersGiveTheSameVerdictOnTheBinaryModeCorpus(document: CorpusDocument) throws {
        let message = try JSONDecoder().decode(CorpusDocument.BinaryModeMessage.self, from: document.bytes())
        let (direct, strict) = Self.binaryOutcomes(
            headers: message.headers, contentType: message.contentType, body: Array(message.body.utf8))
        #expect(direct == strict)
        #expect(((try? strict.get()) != nil) == document.isExpectedValid)
    }

    /// The fast path is taken: every valid input of the corpus is read directly, except the shapes left to the
    /// strict decoder on purpose (here a calendar trigger; KeyMatchingTests has keys spelled with escapes).
    @Test func theDirectReaderReadsEveryValidDocumentButTheShapesItLeavesToTheStrictDecoder() throws {
        let leftToTheStrictDecoder: Set = ["valid/notification-response.trigger-calendar.json"]
        for document in Self.responseDocuments where document.isExpectedValid {
            #expect(Self.isReadDirectly(Array(try document.bytes())) != leftToTheStrictDecoder.contains(document.key),
                    "\(document.key)")
        }
    }

    /// Every value, and every key, of every valid input of the corpus replaced in turn by values that break or
    /// bend the rules: the two readers agree on each variant.
    @Test(arguments: responseDocuments.filter(\.isExpectedValid))
    func bothReadersAgreeOnEveryFieldReplaced(document: CorpusDocument) throws {
        let body = Array(try document.bytes())
        let tape = try StrictJSONParser.parse(body)
        let replacements = [
            "null", #""""#, #""x""#, #""\u0000""#, #""2026-11-20T09:00:00Z""#, "0", "-1", "1.0", "1.5", "1e400", "true",
            "{}", "[]", #""com.apple.UNNotificationDismissActionIdentifier""#, #""push""#, #""timeInterval""#,
            #""location""#, #""calendar""#, #"{"type":"push"}"#, #""1.0""#, #""notification.response.v1""#,
        ].map { Array($0.utf8) }
        var variants = 0
        for node in 1..<tape.nullNode {
            for replacement in replacements {
                let variant = Array(body[..<tape.nodes[node].start]) + replacement + Array(body[tape.nodes[node].end...])
                let (direct, strict) = Self.outcomes(variant)
                #expect(direct == strict, "\(String(decoding: variant, as: UTF8.self))")
                variants += 1
            }
        }
        #expect(variants >= replacements.count * 5)
    }

    /// The body a recorded line holds (replay's format, read in Responder: only its `body` or `bodyBase64` here);
    /// nil for a line that holds none.
    static func recordedBody(_ line: Substring) -> [UInt8]? {
        guard case .object(let members)? = try? EventCodec.decode(JSONValue.self, from: Array(line.utf8)) else {
            return nil
        }
        if let body = members["body"], body != .null { return EventCodec.encode(body) }
        guard case .string(let base64)? = members["bodyBase64"], let bytes = Data(base64Encoded: base64) else {
            return nil
        }
        return Array(bytes)
    }

    /// Every input of the recorded sessions (the fuzzer's seeds), in structured mode and, for each event, in binary
    /// mode as a producer would send it.
    @Test func bothReadersAgreeOnEveryRecordedInputInBothModes() throws {
        let fixtures = ContractFiles.testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures")
        let files = try #require(FileManager.default.enumerator(atPath: fixtures.path)).compactMap { $0 as? String }
        var structured = 0
        var binary = 0
        for file in files where file.hasSuffix(".jsonl") && !file.hasSuffix(".golden.jsonl") {
            let text = try String(contentsOf: fixtures.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                // As the fuzzer's seeds are made: a line that is not a fixture (a comment) is none.
                guard let body = Self.recordedBody(line) else { continue }
                let (direct, strict) = Self.outcomes(body)
                #expect(direct == strict, "\(file): \(line)")
                structured += 1
                guard case .success(let event) = strict else { continue }
                let (binaryDirect, binaryStrict) = Self.binaryOutcomes(
                    headers: BinaryModeHeaders.headers(of: event), contentType: "application/json",
                    body: EventCodec.encode(event.data))
                #expect(binaryDirect == binaryStrict, "\(file): \(line)")
                #expect((try? binaryStrict.get())?.data == event.data)
                binary += 1
            }
        }
        #expect(structured > 50)
        #expect(binary > 50)
    }
}
