/// The AMQP content encodings of the contract's events.
public enum EventContentEncoding {
    /// Whether a message with this AMQP content-encoding holds the JSON text itself: none, an empty one, `identity`,
    /// `utf-8` or `utf8`, in any ASCII letter case. A compressed body is refused, and dead-lettered as
    /// ``DeadLetterReason/unsupportedContentType``.
    public static func isAccepted(_ contentEncoding: String?) -> Bool {
        guard let contentEncoding else { return true }
        return contentEncoding.withPropertyBytes { encoding in
            encoding.isEmpty || encoding.equals(ignoringASCIICase: "identity")
                || encoding.equals(ignoringASCIICase: "utf-8") || encoding.equals(ignoringASCIICase: "utf8")
        }
    }
}
