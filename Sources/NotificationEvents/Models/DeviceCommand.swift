/// The data of an output that tells the push sender what a device must do with a notification besides applying its
/// action set: dismiss it (``NotificationDismissedEvent``) or remove it (``NotificationRemovedEvent``).
public struct DeviceCommand<Kind: DeviceCommandKind>: Sendable, Hashable, Codable, ContractObject {
    /// The notification the device acts on; never empty.
    public var requestIdentifier: String
    /// The notification's category; may be empty, as in the input.
    public var categoryIdentifier: String
    /// The id of the input event that caused this command; never empty.
    public var causationId: String
    /// The notification's version once the input was handled, from 1: the same number as the action-set update the
    /// same input caused, if any, and above that of every output of earlier inputs. Outputs of one notification can
    /// arrive out of order, so a push sender acts on a command only when its version is above the last version it
    /// applied to that notification (updates, dismissals and removals alike), or equal to it from the same input.
    public var version: Int64

    /// A command about `requestIdentifier`, caused by the input event `causationId`, which left the notification at
    /// `version`.
    public init(requestIdentifier: String, categoryIdentifier: String, causationId: String, version: Int64) {
        self.requestIdentifier = requestIdentifier
        self.categoryIdentifier = categoryIdentifier
        self.causationId = causationId
        self.version = version
    }

    private enum CodingKeys: String, CodingKey {
        case requestIdentifier, categoryIdentifier, causationId, version
    }

    /// Reads a command; all fields are required, the identifiers of request and cause must not be empty and the
    /// version is positive.
    public init(from decoder: any Decoder) throws {
        try self.init(fields: decoder.container(keyedBy: CodingKeys.self))
    }

    static func read(from tape: JSONTape, at node: Int) throws -> Self {
        try Self(fields: TapeObject(tape: tape, objectAt: node))
    }

    private init(fields container: some ContractFields<CodingKeys>) throws {
        requestIdentifier = try container.decodeNonEmpty(.requestIdentifier)
        categoryIdentifier = try container.decode(String.self, forKey: .categoryIdentifier)
        causationId = try container.decodeNonEmpty(.causationId)
        version = try container.decode(Int64.self, forKey: .version, atLeast: 1)
    }
}
