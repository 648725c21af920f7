extension CloudEvent {
    /// The id of the command caused by the input event `causationId`, `<causationId>/dismissed` or
    /// `<causationId>/removed`: derived from that id alone, so a redelivered or replayed input always yields the same
    /// output id (the message-id consumers deduplicate on), and one input's dismissal, removal and update never share
    /// one.
    public static func commandID<Kind>(causedBy causationId: String) -> String where Payload == DeviceCommand<Kind> {
        "\(causationId)/\(Kind.idSuffix)"
    }
}
