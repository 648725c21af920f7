extension CloudEvent where Payload == ActionSetUpdate {
    /// The id of the update caused by the input event `causationId`: derived from that id alone, so a
    /// redelivered or replayed input always yields the same output id (the message-id consumers deduplicate on).
    public static func id(causedBy causationId: String) -> String {
        "\(causationId)/actions-updated"
    }
}
