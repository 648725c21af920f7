import Foundation
import NotificationEvents
@testable import Responder
import Testing

/// A fixture line's direct reader (FixtureLine+Reading.swift) never changes a verdict: on every line,
/// `decodeFixtureLine` (the direct reader, then the strict reader for what it does not accept) gives exactly what
/// the strict reader alone gives, the same line or the same error.
@Suite struct FixtureLineReadingTests {
    typealias Outcome = Result<FixtureLine, EventDecodingError>

    static func expectSameVerdict(_ line: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let direct = Result { () throws(EventDecodingError) in try EventCodec.decodeFixtureLine(line) }
        let strict = Result { () throws(EventDecodingError) in try EventCodec.decodeFixtureLineStrictly(line) }
        #expect(direct == strict, "\(String(decoding: line, as: UTF8.self))", sourceLocation: sourceLocation)
        // Equal lines may keep their bodies differently; the bytes a replay hands on must be the same too.
        if case .success(let read) = direct, case .success(let expected) = strict {
            #expect(read.bodyBytes == expected.bodyBytes, sourceLocation: sourceLocation)
            #expect(read.redelivered == expected.redelivered, sourceLocation: sourceLocation)
        }
    }

    static func isReadDirectly(_ line: [UInt8]) -> Bool {
        guard let tape = try? StrictJSONParser.parse(line) else { return false }
        return FixtureLine.directlyRead(from: tape) != nil
    }

    static var recordedLines: [[UInt8]] {
        get throws {
            let files = try #require(
                FileManager.default.enumerator(at: FixtureLineWriterTests.fixtures, includingPropertiesForKeys: nil))
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "jsonl" }
            return try files.flatMap { file in
                try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map { Array($0.utf8) }
            }
        }
    }

    /// Every line of every recorded session and golden file under Fixtures/, and the fast path is taken for each
    /// valid one.
    @Test func everyRecordedLine() throws {
        let lines = try Self.recordedLines
        #expect(lines.count > 20)
        for line in lines {
            Self.expectSameVerdict(line)
            let valid = (try? EventCodec.decodeFixtureLineStrictly(line)) != nil
            #expect(Self.isReadDirectly(line) == valid, "\(String(decoding: line, as: UTF8.self))")
        }
    }

    /// Each member of a line and of its properties replaced in turn by values of every kind, including ones that
    /// break its rule, nulls, and keys spelled with escapes; members left out; unknown members added.
    @Test func linesBentInEachMember() throws {
        let properties = #"{"appId":"a","contentEncoding":"e","contentType":"application/json","correlationId":"c","deliveryMode":2,"messageId":"m","timestamp":5,"type":"t"}"#
        let members = [
            ("exchange", #""x""#), ("routingKey", #""r""#), ("redelivered", "true"), ("properties", properties),
            ("body", #"{"b":[1]}"#),
        ]
        let values = [
            "null", "true", "false", "0", "-1", "1", "2", "3", "1.0", "2E0", "1e400", "9223372036854775807",
            "-9223372036854775808", #""""#, #""s""#, #""\u00e9\n""#, #""QUJD""#, #""QUJ""#, #""not base64!""#, "[]",
            "{}", #"{"headers":{"h":1}}"#, #"{"k":"v"}"#,
        ]
        func line(_ members: [(String, String)]) -> [UInt8] {
            Array(("{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}").utf8)
        }
        Self.expectSameVerdict(line(members))
        #expect(Self.isReadDirectly(line(members)))
        let lineKeys = members.map(\.0) + ["bodyBase64", "unknown"]
        for key in lineKeys {
            for value in values {
                Self.expectSameVerdict(line(members.filter { $0.0 != key } + [(key, value)]))
                Self.expectSameVerdict(line(members.filter { $0.0 != "body" && $0.0 != key } + [(key, value)]))
            }
            Self.expectSameVerdict(line(members.filter { $0.0 != key }))
            // The same key spelled with an escape.
            let escaped = "\\u00" + String(key.utf8.first!, radix: 16) + key.dropFirst()
            Self.expectSameVerdict(line(members.filter { $0.0 != key } + [(escaped, members.first { $0.0 == key }?.1 ?? "1")]))
        }
        let propertyKeys = [
            "appId", "contentEncoding", "contentType", "correlationId", "deliveryMode", "messageId", "timestamp", "type",
            "headers", "unknown",
        ]
        for key in propertyKeys {
            for value in values {
                let bent = #"{"\#(key)":\#(value)}"#
                Self.expectSameVerdict(line(members.filter { $0.0 != "properties" } + [("properties", bent)]))
            }
        }
        for document in ["[]", "null", #""line""#, "{}", #"{"exchange":"x"}"#] {
            Self.expectSameVerdict(Array(document.utf8))
        }
    }
}
