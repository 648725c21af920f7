import NotificationEvents
import Testing

@Suite struct EventContentTypeTests {
    @Test(arguments: [
        "application/cloudevents+json", "application/json", "Application/JSON", "application/json; charset=utf-8",
        "application/cloudevents+json;charset=\"UTF-8\"", " application/json ; version=1",
        "APPLICATION/CLOUDEVENTS+JSON;CHARSET=UTF-8", "application/json\t;\tcharset = utf-8 ;title=\"caf\u{E9}\"",
    ])
    func acceptsBothJSONTypesWithParameters(contentType: String) {
        #expect(EventContentType.isAccepted(contentType))
    }

    @Test(arguments: [
        "text/plain", "application/xml", "application/json; charset=latin-1", "application/jsonx", "application/json;",
        "application/cloudevents-batch+json", "application/json x", " ;charset=utf-8", "application/json; =1",
        "application/json; charset=\"utf-8", "application/json; charset=utf8",
    ])
    func refusesOtherTypesAndCharsets(contentType: String) {
        #expect(!EventContentType.isAccepted(contentType))
    }

    @Test(arguments: [nil, "", "  ", "\t \t"])
    func readsAMessageWithoutContentTypeOrWithABlankOneAsJSON(contentType: String?) {
        #expect(EventContentType.isAccepted(contentType))
    }

    /// The rule reads bytes: only ASCII spells a name, a separator or a blank. No other space is a blank, the Greek
    /// question mark (which Unicode makes canonically equal to `;`) separates nothing, and a mark that joins a
    /// separator into one character (a combining mark or joiner after it, a prepended mark before it) hides neither
    /// the parameter after it nor a charset.
    @Test(arguments: [
        ("\u{A0}", false), ("\u{3000}", false), ("appl\u{130}cation/json", false), ("applicat\u{131}on/json", false),
        ("application/json\u{37E}charset=utf-8", false), ("application/json; charset=utf\u{2011}8", false),
        ("application/json; x=1\u{600};charset=latin-1", false), ("application/json; x=1;\u{301}charset=utf-8", true),
        ("application/json; charset=utf-8;\u{301}x=1", true), ("application/json; x=\u{200D}", true),
        ("application/json; x\u{600}=1", true),
    ])
    func onlyASCIISpellsNamesSeparatorsAndBlanks(contentType: String, accepted: Bool) {
        #expect(EventContentType.isAccepted(contentType) == accepted)
    }
}
