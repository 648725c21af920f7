import NotificationEvents
import Testing

@Suite struct EventContentEncodingTests {
    @Test(arguments: [nil, "", "identity", "IDENTITY", "utf-8", "UTF-8", "utf8", "Utf8"])
    func acceptsTheJSONTextItself(contentEncoding: String?) {
        #expect(EventContentEncoding.isAccepted(contentEncoding))
    }

    /// A compressed body, and spellings that only look like an accepted one: blanks, and letters beyond ASCII (İ
    /// lowercases to `i` with a combining dot).
    @Test(arguments: ["gzip", "deflate", " identity", "identity ", "\u{130}dentity", "utf\u{2011}8", "utf-16"])
    func refusesEverythingElse(contentEncoding: String) {
        #expect(!EventContentEncoding.isAccepted(contentEncoding))
    }
}
