import Messaging
import NotificationEvents

/// A fixture line's `properties` member as the file holds it: `MessageProperties` by their contract names, read
/// strictly (a timestamp not negative, a delivery mode 1 or 2) and written with `headers` left out when there are
/// none, so a recorded line is written back as it was read.
///
/// Why not `StoredProperties`: the state stores keep outputs' properties in that form (headers always written,
/// even when empty), and their bytes must not change with the replay file's.
struct RecordedProperties: Codable {
    var properties: MessageProperties

    init(_ properties: MessageProperties) {
        self.properties = properties
    }

    init(from decoder: any Decoder) throws {
        properties = try MessageProperties(
            from: decoder.container(keyedBy: PropertyKey.self), negativeTimestamps: .refused)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: PropertyKey.self)
        try properties.encode(to: &container, emptyHeaders: .leftOut)
    }
}
