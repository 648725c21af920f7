/// The AMQP content types of the contract's events.
public enum EventContentType {
    /// CloudEvents structured mode; what the worker publishes.
    public static let cloudEvents = cloudEventsMediaType.description
    /// Plain JSON, also accepted on input.
    public static let json = jsonMediaType.description

    private static let cloudEventsMediaType: StaticString = "application/cloudevents+json"
    private static let jsonMediaType: StaticString = "application/json"

    /// Whether a message with this AMQP content-type holds a body the event decoders read: either type in any
    /// letter case, with parameters, of which a charset must be `utf-8`; spaces and tabs are allowed around each
    /// part. A message without content-type, or with a blank one, is read as JSON, since many publishers leave it
    /// out. A refused one is dead-lettered as ``DeadLetterReason/unsupportedContentType``.
    ///
    /// The rule reads the UTF-8 bytes: the names and separators it looks for are ASCII, and any other byte is only
    /// itself (no character beyond ASCII spells a separator, a blank or a letter of a name, and a combining mark
    /// after `;` or `=` does not hide it).
    public static func isAccepted(_ contentType: String?) -> Bool {
        guard let contentType else { return true }
        return contentType.withPropertyBytes(isAccepted)
    }

    private static func isAccepted(_ contentType: PropertyBytes) -> Bool {
        let start = contentType.droppingLeadingBlanks
        if start.isEmpty { return true }
        guard
            let afterMediaType = start.dropping(wordIgnoringASCIICase: cloudEventsMediaType)
                ?? start.dropping(wordIgnoringASCIICase: jsonMediaType)
        else { return false }
        var parameters = afterMediaType.droppingLeadingBlanks
        while let separator = parameters.first {
            guard separator == UInt8(ascii: ";") else { return false }
            let parameter = parameters.dropFirst()
            let end = parameter.firstIndex(of: UInt8(ascii: ";")) ?? parameter.endIndex
            guard isAcceptedParameter(parameter[..<end]) else { return false }
            parameters = parameter[end...]
        }
        return true
    }

    /// A `name=value` pair with a name; a charset must be `utf-8`, quoted or not, in any letter case.
    private static func isAcceptedParameter(_ parameter: PropertyBytes) -> Bool {
        guard let equals = parameter.firstIndex(of: UInt8(ascii: "=")) else { return false }
        let name = parameter[..<equals].trimmingBlanks
        guard !name.isEmpty else { return false }
        guard name.equals(ignoringASCIICase: "charset") else { return true }
        let value = parameter[(equals + 1)...].trimmingBlanks
        return value.equals(ignoringASCIICase: "utf-8") || value.equals(ignoringASCIICase: "\"utf-8\"")
    }
}
