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
        // The spelling this worker and most producers use, compared first: the general rule below (blanks, letter
        // case, a prefix by characters) cost about 4,600 instructions an input.
        if contentType == EventContentType.cloudEvents { return .structured }
        // Blanks before the media type, which the content-type check also allows.
        if let mediaType = contentType?.drop(while: { $0 == " " || $0 == "\t" }),
            mediaType.prefix(structuredPrefix.count).lowercased() == structuredPrefix
        {
            return .structured
        }
        return BinaryModeHeaders.specVersionHeaders.contains { headers[$0] != nil } ? .binary : .structured
    }

    private static let structuredPrefix = "application/cloudevents"
}
