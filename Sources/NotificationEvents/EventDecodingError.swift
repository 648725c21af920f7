/// Why an event body was refused, worded so the sender can fix it.
public enum EventDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The body is not JSON (or not UTF-8): the parser's reason.
    case malformedJSON(String)
    /// A field is missing or has the wrong type: `path` is dotted from the envelope, e.g.
    /// `data.notification.request.identifier`, and `problem` says what, e.g. `missing` or
    /// `expected integer, found string`.
    case invalidField(path: String, problem: String)
    /// The `type` attribute names an event this worker does not handle.
    case unknownType(String)
    /// The `specversion` attribute is not CloudEvents 1.0.
    case unknownSpecVersion(String)

    /// A short stable code for metrics and dead-letter headers.
    public var code: String {
        switch self {
        case .malformedJSON: "malformed-json"
        case .invalidField: "invalid-field"
        case .unknownType: "unknown-type"
        case .unknownSpecVersion: "unknown-specversion"
        }
    }

    public var description: String {
        switch self {
        case .malformedJSON(let reason): "not valid JSON: \(reason)"
        case .invalidField(let path, let problem): "\(path): \(problem)"
        case .unknownType(let type): "unknown event type \"\(type)\", expected \"\(EventType.notificationResponse)\""
        case .unknownSpecVersion(let version): "unknown specversion \"\(version)\", expected \"1.0\""
        }
    }
}
