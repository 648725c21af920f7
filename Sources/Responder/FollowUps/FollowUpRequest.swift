import Foundation

/// A follow-up a handler asked for during one call, before the pipeline gives it an id and stores it.
struct FollowUpRequest: Sendable, Hashable {
    var name: String
    var payload: [UInt8]
    var dueDate: Date
    /// How long from the request until it is due: what the first delay queue is chosen by.
    var delay: Duration
    /// The handler that asked, once its call returned; nil until then.
    var handler: String?
}
