/// A property of the content header that AMQP writes as a short string: at most
/// ``PublishLimits/maxShortStringBytes`` bytes of UTF-8 on the wire. The cases are in the header's order: of two too
/// long, a check names the first.
public enum ShortStringProperty: CaseIterable, Sendable {
    /// ``MessageProperties/contentType``.
    case contentType
    /// ``MessageProperties/contentEncoding``.
    case contentEncoding
    /// ``MessageProperties/correlationID``.
    case correlationID
    /// ``MessageProperties/replyTo``.
    case replyTo
    /// ``MessageProperties/expiration``.
    case expiration
    /// ``MessageProperties/messageID``.
    case messageID
    /// ``MessageProperties/type``.
    case type
    /// ``MessageProperties/userID``.
    case userID
    /// ``MessageProperties/appID``.
    case appID

    /// Its name in a problem's text.
    public var name: StaticString {
        switch self {
        case .contentType: "content-type"
        case .contentEncoding: "content-encoding"
        case .correlationID: "correlation-id"
        case .replyTo: "reply-to"
        case .expiration: "expiration"
        case .messageID: "message-id"
        case .type: "type"
        case .userID: "user-id"
        case .appID: "app-id"
        }
    }
}

extension MessageProperties {
    /// The value of a short-string property.
    public subscript(shortString property: ShortStringProperty) -> String? {
        get {
            switch property {
            case .contentType: contentType
            case .contentEncoding: contentEncoding
            case .correlationID: correlationID
            case .replyTo: replyTo
            case .expiration: expiration
            case .messageID: messageID
            case .type: type
            case .userID: userID
            case .appID: appID
            }
        }
        set {
            switch property {
            case .contentType: contentType = newValue
            case .contentEncoding: contentEncoding = newValue
            case .correlationID: correlationID = newValue
            case .replyTo: replyTo = newValue
            case .expiration: expiration = newValue
            case .messageID: messageID = newValue
            case .type: type = newValue
            case .userID: userID = newValue
            case .appID: appID = newValue
            }
        }
    }
}
