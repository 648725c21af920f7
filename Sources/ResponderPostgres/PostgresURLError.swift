/// A state URL that ``PostgresURL`` refuses. Its description names the faulty part and never repeats the
/// password or any other value of the URL.
public enum PostgresURLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Longer than ``PostgresURL`` accepts.
    case tooLong
    /// A space, control or non-ASCII character that is not percent-encoded.
    case invalidCharacter
    /// Not `postgres://` or `postgresql://`.
    case scheme
    /// A `#` fragment.
    case fragment
    /// No user, or not exactly one `@`.
    case userInfo
    /// A host that is not a host name or an address.
    case host
    /// A port that is not a number from 1 to 65535.
    case port
    /// A database name with an unescaped `/`.
    case database
    /// A percent-escape or a decoded character that is not allowed, in the named part.
    case escape(String)
    /// An unknown or malformed parameter (its name when it is safe to show).
    case parameter(String)
    /// A parameter given twice (its name when it is safe to show).
    case repeatedParameter(String)
    /// A known parameter with a value it cannot take.
    case parameterValue(String)

    public var description: String {
        let problem =
            switch self {
            case .tooLong: "it is longer than \(PostgresURL.maximumLength) bytes"
            case .invalidCharacter: "it holds a space, a control or a non-ASCII character (percent-encode them)"
            case .scheme: "it does not start with postgres:// or postgresql://"
            case .fragment: "it has a fragment (#)"
            case .userInfo: "it needs exactly one USER[:PASSWORD]@ before the host (percent-encode @ as %40)"
            case .host: "its host is not a host name, an IPv4 address or a bracketed IPv6 address"
            case .port: "its port is not a number from 1 to 65535"
            case .database: "its database name holds a / (percent-encode it as %2F)"
            case .escape(let part): "\(part) has an invalid percent-escape or a control character"
            case .parameter(let name): "unknown or malformed parameter \(name)"
            case .repeatedParameter(let name): "parameter \(name) is given twice"
            case .parameterValue(let name): "invalid value of \(name)"
            }
        return "invalid PostgreSQL state URL: \(problem)"
    }
}
