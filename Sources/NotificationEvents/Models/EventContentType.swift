/// The AMQP content types of the contract's events.
public enum EventContentType {
    /// CloudEvents structured mode; what the worker publishes.
    public static let cloudEvents = "application/cloudevents+json"
    /// Plain JSON, also accepted on input.
    public static let json = "application/json"

    /// Whether a message with this AMQP content-type holds a body the event decoders read: either type in any
    /// letter case, with parameters, of which a charset must be `utf-8`. A message without content-type is read
    /// as JSON, since many publishers leave it out. A refused one is dead-lettered as
    /// ``DeadLetterReason/unsupportedContentType``.
    public static func isAccepted(_ contentType: String?) -> Bool {
        guard let contentType else { return true }
        let parts = contentType.split(separator: ";", omittingEmptySubsequences: false).map { trimmed($0).lowercased() }
        guard let mediaType = parts.first, mediaType == cloudEvents || mediaType == json else { return false }
        return parts.dropFirst().allSatisfy { parameter in
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(trimmed)
            guard pair.count == 2, !pair[0].isEmpty else { return false }
            return pair[0] != "charset" || pair[1] == "utf-8" || pair[1] == "\"utf-8\""
        }
    }

    private static func trimmed(_ text: Substring) -> String {
        let blank: Set<Character> = [" ", "\t"]
        return String(text.drop { blank.contains($0) }.reversed().drop { blank.contains($0) }.reversed())
    }
}
