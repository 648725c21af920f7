/// Why a document was refused, worded so the sender can fix it and never containing a field's value (a value may
/// be a user's typed text), so ``description`` is safe for logs and the `x-responder-detail` dead-letter header.
public enum EventDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The body is not JSON by the contract's rules (not UTF-8, a syntax error, `NaN`, a number out of range,
    /// nested deeper than ``EventCodec/maximumNestingDepth``): the reason and the byte offset where it was found.
    case malformedJSON(String)
    /// A field is missing, has the wrong type or breaks a rule: `path` is dotted from the document's top, with
    /// array positions in brackets, e.g. `data.notification.request.identifier` or `data.actions[1].title`
    /// (`(root)` for the document itself), and `problem` says what, e.g. `missing`,
    /// `expected integer, found string`, `must not be empty` or `duplicate key`.
    case invalidField(path: String, problem: String)
    /// The `type` attribute names an event this decoder does not read.
    case unknownType(String)
    /// The `specversion` attribute is not CloudEvents 1.0.
    case unknownSpecVersion(String)

    /// The dead-letter reason for a message refused with this error.
    public var deadLetterReason: DeadLetterReason {
        switch self {
        case .malformedJSON: .malformedJSON
        case .invalidField: .invalidField
        case .unknownType: .unknownType
        case .unknownSpecVersion: .unknownSpecVersion
        }
    }

    /// A short stable code for metrics and dead-letter headers: ``deadLetterReason``'s raw value.
    public var code: String { deadLetterReason.rawValue }

    public var description: String {
        switch self {
        case .malformedJSON(let reason): "not valid JSON: \(reason)"
        case .invalidField(let path, let problem): "\(path): \(problem)"
        case .unknownType(let type): "unknown event type \(Self.quoted(type))"
        case .unknownSpecVersion(let version): "unknown specversion \(Self.quoted(version)), expected \"1.0\""
        }
    }

    /// An attribute a sender chose, shortened so a huge one cannot bloat a log line or header.
    private static func quoted(_ text: String) -> String {
        let limit = 64
        return "\"" + (text.count > limit ? String(text.prefix(limit)) + "…" : text) + "\""
    }
}
