import Foundation
import NotificationEvents
import Testing

/// Dates are RFC 3339 on the wire, read exactly as the schemas' `date-time` and written in UTC.
@Suite struct DateTests {
    static func notificationDate(_ text: String) throws -> Date {
        let json = #"{"date":"\#(text)","request":{"identifier":"r","content":{"categoryIdentifier":""}}}"#
        return try EventCodec.decode(NotificationEvents.Notification.self, from: Array(json.utf8)).date
    }

    @Test(arguments: [
        ("2026-11-20T09:00:00Z", 1_795_165_200.0), ("2026-11-20t09:00:00z", 1_795_165_200),
        ("2026-11-20T10:30:00+01:30", 1_795_165_200), ("2026-11-20T04:00:00-05:00", 1_795_165_200),
        ("2026-11-20T09:00:00-00:00", 1_795_165_200), ("2026-11-20T09:00:00.5Z", 1_795_165_200.5),
        ("1970-01-01T00:00:00Z", 0), ("1969-12-31T23:59:59Z", -1), ("2000-02-29T12:00:00Z", 951_825_600),
        ("0001-01-01T00:00:00Z", -62_135_596_800), ("9999-12-31T23:59:59Z", 253_402_300_799),
    ])
    func readsEachForm(text: String, secondsSince1970: Double) throws {
        #expect(try Self.notificationDate(text).timeIntervalSince1970 == secondsSince1970)
    }

    @Test(arguments: [
        "2026-11-20", "2026-11-20T09:00Z", "2026-11-20T09:00:00", "2026-11-20 09:00:00Z", "2026-11-20T09:00:00.Z",
        "2026-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-00-10T00:00:00Z",
        "2026-11-20T24:00:00Z", "2026-11-20T09:60:00Z", "2026-11-20T09:00:60Z", "2026-11-20T09:00:00+24:00",
        "2026-11-20T09:00:00+01", "+2026-11-20T09:00:00Z", "2026-11-20T09:00:00Z ", "0000-01-01T00:00:00Z",
    ])
    func refusesWhatTheSchemaRefuses(text: String) {
        #expect(throws: EventDecodingError.invalidField(path: "date", problem: "expected RFC 3339 date-time")) {
            try Self.notificationDate(text)
        }
    }

    @Test(arguments: [
        (1_795_165_200.0, "2026-11-20T09:00:00Z"), (1_795_165_200.25, "2026-11-20T09:00:00.250Z"),
        (-0.5, "1969-12-31T23:59:59.500Z"), (1_795_165_199.9996, "2026-11-20T09:00:00Z"),
    ])
    func writesUTCWithMillisecondsOnlyWhenThereAreAny(secondsSince1970: Double, text: String) {
        let date = Date(timeIntervalSince1970: secondsSince1970)
        #expect(String(decoding: EventCodec.encode(["at": date]), as: UTF8.self) == #"{"at":"\#(text)"}"#)
    }

    /// Sub-millisecond precision is dropped once; after that, reading and writing again changes nothing.
    @Test func aDateIsKeptToTheMillisecond() throws {
        let now = Date(timeIntervalSince1970: 1_795_165_200.123_456_7)
        let written = EventCodec.encode(["at": now])
        let read = try EventCodec.decode([String: Date].self, from: written)["at"]
        #expect(abs(try #require(read).timeIntervalSince(now)) < 0.0005)
        #expect(EventCodec.encode(["at": try #require(read)]) == written)
    }
}
