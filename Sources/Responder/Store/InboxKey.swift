/// An inbox entry's key: CloudEvents makes an id unique per source only.
struct InboxKey: Hashable, Sendable {
    var source: String
    var eventID: String
}
