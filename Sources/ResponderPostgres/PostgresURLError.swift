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
        let problem: String
        switch self {
        case .tooLong: problem = "it is longer than \(PostgresURL.maximumLength) bytes"
        case .invalidCharacter: problem = "it holds a space, a control or a non-ASCII character (percent-encode them)"
        case .scheme: problem = "it does not start with postgres:// or postgresql://"
        case .fragment: problem = "it has a fragment (#)"
        case .userInfo: problem = "it needs exactly one USER[:PASSWORD]@ before the host (percent-encode @ as %40)"
        case .host: problem = "its host is not a host name, an IPv4 address or a bracketed IPv6 address"
        case .port: problem = "its port is not a number from 1 to 65535"
        case .database: problem = "its database name holds a / (percent-encode it as %2F)"
        case .escape(let part): problem = "\(part) has an invalid percent-escape or a control character"
        case .parameter(let name): problem = "unknown or malformed parameter \(name)"
        case .repeatedParameter(let name): problem = "parameter \(name) is given twice"
        case .parameterValue(let name): problem = "invalid value of \(name)"
        }
        return "invalid PostgreSQL state URL: \(problem)"
    }
}
