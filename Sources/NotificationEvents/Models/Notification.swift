import Foundation

/// A delivered notification, as `UNNotification`.
public struct Notification: Sendable, Hashable, Codable, ContractObject {
    /// When the notification was delivered.
    public var date: Date
    /// The request that was delivered.
    public var request: NotificationRequest

    /// A notification delivered at `date`.
    public init(date: Date, request: NotificationRequest) {
        self.date = date
        self.request = request
    }

    private enum CodingKeys: String, CodingKey {
        case date, request
    }

    /// Reads a notification; both fields are required.
    public init(from decoder: any Decoder) throws {
        try self.init(fields: decoder.container(keyedBy: CodingKeys.self))
    }

    static func read(from tape: JSONTape, at node: Int) throws -> Self {
        try Self(fields: TapeObject(tape: tape, objectAt: node))
    }

    private init(fields container: some ContractFields<CodingKeys>) throws {
        date = try container.decode(Date.self, forKey: .date)
        request = try container.decode(NotificationRequest.self, forKey: .request)
    }
}
