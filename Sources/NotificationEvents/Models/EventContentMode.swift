/// How a CloudEvent travels in an AMQP message, as the CloudEvents AMQP protocol binding defines the two modes.
public enum EventContentMode: String, Sendable, Hashable, CaseIterable {
    /// The whole event is the body, as `application/cloudevents+json`.
    case structured
    /// The attributes are headers (``BinaryModeHeaders``), the content-type property is `datacontenttype` and
    /// the body is `data`.
    case binary

    /// The mode of a message, as the binding tells them apart: a content type of `application/cloudevents` (any
    /// format, any letter case) is structured; otherwise a `specversion` header (either prefix) makes it binary.
    /// A message with neither is read as structured, since producers that leave out the content type send whole
    /// events as plain JSON.
    public static func of(contentType: String?, headers: [String: JSONValue]) -> EventContentMode {
        of(contentType: contentType) { headers[$0] != nil }
    }

    /// The mode of a message whose headers `hasHeader` looks up by name, by the rules of
    /// ``of(contentType:headers:)``.
    public static func of(contentType: String?, hasHeader: (String) -> Bool) -> EventContentMode {
        if let contentType, isStructured(contentType) { return .structured }
        return BinaryModeHeaders.specVersionHeaders.contains(where: hasHeader) ? .binary : .structured
    }

    /// Whether `contentType`, after blanks (which the content-type check also allows), starts with the characters
    /// `application/cloudevents` in any letter case: its UTF-8 bytes compared with ASCII letters folded, without a
    /// `String` of the prefix (`lowercased()` of a prefix by characters cost about 4,600 instructions an input). No
    /// character beyond ASCII lowercases to one of the prefix's letters (the Kelvin sign lowercases to `k`), so only
    /// the last one, `s`, needs a second look, when what follows it is not ASCII and may join it into one character
    /// (a combining mark): then it is not the prefix's `s`.
    private static func isStructured(_ contentType: String) -> Bool {
        guard
            let end = contentType.withPropertyBytes({
                $0.droppingLeadingBlanks.dropping(wordIgnoringASCIICase: "application/cloudevents")?.startIndex
            })
        else { return false }
        let utf8 = contentType.utf8
        if end == utf8.count || utf8[utf8.index(utf8.startIndex, offsetBy: end)] < 0x80 { return true }
        return contentType[utf8.index(utf8.startIndex, offsetBy: end - 1)...].first?.utf8.count == 1
    }
}
