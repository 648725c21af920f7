import NotificationEvents
import Responder

extension FixtureLine {
    /// This line with its event id and message id suffixed, so the broker and the inbox see a new event.
    func renamed(suffix: String) -> FixtureLine {
        var line = self
        if case .object(var event)? = body, case .string(let id)? = event["id"] {
            event["id"] = .string(id + suffix)
            line.body = .object(event)
        }
        line.properties.messageID = properties.messageID.map { $0 + suffix }
        return line
    }
}
