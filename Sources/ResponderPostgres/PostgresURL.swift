import Foundation
import PostgresNIO

/// Where a ``PostgresStateStore`` connects, parsed from `postgres://USER:PASSWORD@HOST:PORT/DATABASE?PARAMETERS`
/// (or `postgresql://`).
///
/// The text comes from outside (a flag, the environment, a mounted file), so it is read strictly: user, password
/// and database are percent-decoded (a `%` must start a valid escape, and a literal `@`, `:` or `/` in them must
/// be escaped), no part may hold a control character, and an unknown, repeated or malformed parameter is refused.
/// Parameters:
/// - `sslmode`: `prefer-verified` (the default: TLS when the server offers it, and then the chain and the host
///   name verified, as `verify-full`), `disable`, `prefer` (as libpq's: TLS when the server offers it,
///   unverified), `require` (TLS, unverified unless `sslrootcert` is given), `verify-ca` (the chain) or
///   `verify-full` (the chain and the host name); the unverified modes log a warning at start
///   (``unverifiedTLSWarning``);
/// - `sslrootcert`: a PEM file of the CA certificates to trust instead of the system's;
/// - `pool_size`: the most connections the worker opens (1 to 1000, default 10);
/// - `connect_timeout`: seconds a connection attempt may take (1 to 600, default 10);
/// - `schema`: the schema holding the store's tables (default `public`), created by the migrations if missing.
///
/// The password is never shown: ``description`` and every error leave it out.
public struct PostgresURL: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// How TLS is used, by libpq's names, and the default of its own.
    public enum TLSMode: String, Sendable, Hashable, CaseIterable {
        /// TLS when the server offers it, and then verified as ``verifyFull``: libpq's `prefer` checks nothing,
        /// so a man in the middle could present any certificate.
        case preferVerified = "prefer-verified"
        case disable, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    /// The longest URL accepted, in bytes.
    static let maximumLength = 4096

    /// The server's host name or address (an IPv6 address without its brackets).
    public var host: String
    /// The server's port (default 5432).
    public var port: Int
    /// The role to connect as.
    public var username: String
    /// The role's password, if the URL gives one; kept inside the package so that nothing prints it.
    var password: String?
    /// The database (default: the user name, as libpq).
    public var database: String
    /// How TLS is used.
    public var tlsMode: TLSMode
    /// A PEM file of the CA certificates to trust, if not the system's.
    public var rootCertificatePath: String?
    /// The most connections of the pool.
    public var poolSize: Int
    /// How long one connection attempt may take.
    public var connectTimeout: Duration
    /// The schema of the store's tables.
    public var schema: String

    /// Parses `text`; throws ``PostgresURLError`` (which never repeats the password) when it is not a valid URL.
    public init(_ text: String) throws(PostgresURLError) {
        guard text.utf8.count <= Self.maximumLength else { throw .tooLong }
        guard !text.utf8.contains(where: { $0 < 0x21 || $0 >= 0x7F }) else { throw .invalidCharacter }
        var rest = Substring(text)
        guard let schemeEnd = rest.range(of: "://") else { throw .scheme }
        guard ["postgres", "postgresql"].contains(rest[..<schemeEnd.lowerBound].lowercased()) else { throw .scheme }
        rest = rest[schemeEnd.upperBound...]
        guard !rest.contains("#") else { throw .fragment }

        let query: Substring?
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        } else {
            query = nil
        }
        let authority: Substring
        var databaseText: Substring?
        if let slash = rest.firstIndex(of: "/") {
            authority = rest[..<slash]
            databaseText = rest[rest.index(after: slash)...]
        } else {
            authority = rest
        }

        let parts = authority.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw .userInfo }
        let userInfo = parts[0].split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        username = try Self.decode(userInfo[0], part: "user")
        guard !username.isEmpty else { throw .userInfo }
        password = userInfo.count == 2 ? try Self.decode(userInfo[1], part: "password") : nil
        (host, port) = try Self.hostAndPort(parts[1])

        if let databaseText, !databaseText.isEmpty {
            guard !databaseText.contains("/") else { throw .database }
            database = try Self.decode(databaseText, part: "database")
        } else {
            database = username
        }
        tlsMode = .preferVerified
        rootCertificatePath = nil
        poolSize = 10
        connectTimeout = .seconds(10)
        schema = "public"
        if let query { try readParameters(query) }
    }

    public var description: String {
        var text = "postgres://\(username)\(password == nil ? "" : ":***")@"
        text += host.contains(":") ? "[\(host)]" : host
        text += ":\(port)/\(database)?sslmode=\(tlsMode.rawValue)&pool_size=\(poolSize)"
        if schema != "public" { text += "&schema=\(schema)" }
        return text
    }

    /// What `dump` and debuggers show: the description, without the password.
    public var customMirror: Mirror { Mirror(self, children: ["url": description]) }

    /// Whether the URL gives a password.
    public var hasPassword: Bool { password != nil }

    /// A warning for the log when the connection may go unverified (`disable`, or `prefer` and `require` without
    /// `sslrootcert`): a man in the middle could read and change what the worker reads and writes (the password
    /// he cannot learn: a cleartext request is refused on such a connection). Nil when every TLS connection is
    /// verified.
    public var unverifiedTLSWarning: String? {
        guard !verifiesServer else { return nil }
        return "the PostgreSQL connection is not verified (sslmode=\(tlsMode.rawValue)"
            + (tlsMode == .disable ? "" : " without sslrootcert")
            + "): a man in the middle could read and change the state; use the default sslmode, verify-full "
            + "or sslrootcert"
    }

    /// Whether a connection that uses TLS verifies the server's certificate (the chain at least).
    var verifiesServer: Bool {
        switch tlsMode {
        case .preferVerified, .verifyCA, .verifyFull: true
        case .prefer, .require: rootCertificatePath != nil
        case .disable: false
        }
    }

    private mutating func readParameters(_ query: Substring) throws(PostgresURLError) {
        var seen: Set<String> = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: false) {
            let keyValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard keyValue.count == 2, !keyValue[0].isEmpty else { throw .parameter(Self.shown(keyValue[0])) }
            let key = String(keyValue[0])
            guard seen.insert(key).inserted else { throw .repeatedParameter(Self.shown(keyValue[0])) }
            let value = try Self.decode(keyValue[1], part: Self.shown(keyValue[0]))
            switch key {
            case "sslmode":
                guard let mode = TLSMode(rawValue: value) else { throw .parameterValue("sslmode") }
                tlsMode = mode
            case "sslrootcert":
                guard !value.isEmpty else { throw .parameterValue("sslrootcert") }
                rootCertificatePath = value
            case "pool_size":
                guard let size = Int(value), (1...1000).contains(size) else { throw .parameterValue("pool_size") }
                poolSize = size
            case "connect_timeout":
                guard let seconds = Int(value), (1...600).contains(seconds) else {
                    throw .parameterValue("connect_timeout")
                }
                connectTimeout = .seconds(seconds)
            case "schema":
                guard (1...63).contains(value.utf8.count),
                    value.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) }),
                    value.utf8.first.map({ $0 < 0x30 || $0 > 0x39 }) ?? false
                else { throw .parameterValue("schema") }
                schema = value
            default:
                throw .parameter(Self.shown(keyValue[0]))
            }
        }
        if rootCertificatePath != nil, tlsMode == .disable || tlsMode == .prefer {
            throw .parameterValue("sslrootcert (it needs sslmode require, verify-ca or verify-full)")
        }
    }

    /// The parameters a URL may have.
    static let parameters: Set<String> = ["sslmode", "sslrootcert", "pool_size", "connect_timeout", "schema"]

    /// A parameter's name as an error may show it: only a known name, since a misplaced password could sit where
    /// a name is expected.
    private static func shown(_ key: Substring) -> String {
        parameters.contains(String(key)) ? String(key) : "(not shown; known: \(parameters.sorted().joined(separator: ", ")))"
    }

    private static func hostAndPort(_ text: Substring) throws(PostgresURLError) -> (String, Int) {
        var hostText: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw .host }
            hostText = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            guard hostText.utf8.allSatisfy({ $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") || $0.isHexDigit }),
                hostText.contains(":")
            else { throw .host }
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .host }
                portText = after.dropFirst()
            }
        } else {
            let split = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            hostText = split[0]
            portText = split.count == 2 ? split[1] : nil
            guard hostText.utf8.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
            else { throw .host }
        }
        guard !hostText.isEmpty, hostText.utf8.count <= 253 else { throw .host }
        guard let portText else { return (String(hostText), 5432) }
        guard (1...5).contains(portText.count), portText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let port = Int(portText), (1...65535).contains(port)
        else { throw .port }
        return (String(hostText), port)
    }

    /// Percent-decodes `text`; every `%` must start an escape, and the result must be UTF-8 without control
    /// characters.
    private static func decode(_ text: Substring, part: String) throws(PostgresURLError) -> String {
        guard let decoded = String(text).removingPercentEncoding,
            !decoded.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { throw .escape(part == "password" ? "the password" : part) }
        return decoded
    }
}
