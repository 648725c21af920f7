extension AMQPConfiguration {
    /// A configuration from `amqp://user:password@host:port/vhost` or `amqps://…` (TLS with verification on and the
    /// system CA bundle).
    ///
    /// User, password, host and virtual host are percent-decoded. Missing parts get defaults: user and password
    /// `guest` when there is no `user@`, an empty password for `user@`, port 5672 (5671 for amqps), virtual host `/`
    /// when the path is empty or `/`; `%2F` is the usual way to write `/`. IPv6 hosts go in brackets.
    /// Query parameters are refused rather than ignored: set ``heartbeat`` and the other properties instead.
    /// Errors explain what is wrong without repeating the URL, which would reveal the password.
    public init(url: String) throws(AMQPError) {
        self = try AMQPURL.parse(url)
    }
}

/// Parsing and printing of AMQP URLs (the RabbitMQ URI specification, minus query parameters).
enum AMQPURL {
    static func parse(_ url: String) throws(AMQPError) -> AMQPConfiguration {
        guard let separator = url.range(of: "://") else {
            throw .invalidURL("it must start with amqp:// or amqps://")
        }
        let tls: TLSConfiguration?
        switch url[..<separator.lowerBound].lowercased() {
        case "amqp": tls = nil
        case "amqps": tls = TLSConfiguration()
        default: throw .invalidURL("the scheme must be amqp or amqps")
        }
        let rest = url[separator.upperBound...]
        if rest.contains("?") || rest.contains("#") {
            throw .invalidURL("query parameters and fragments are not supported; set the configuration's properties")
        }
        let pathStart = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<pathStart]

        var configuration = AMQPConfiguration(tls: tls)
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            authority = authority[authority.index(after: at)...]
            if let colon = userInfo.firstIndex(of: ":") {
                configuration.user = try decoded(userInfo[..<colon], part: "user name")
                configuration.password = try decoded(userInfo[userInfo.index(after: colon)...], part: "password")
            } else {
                configuration.user = try decoded(userInfo, part: "user name")
                configuration.password = ""
            }
        }

        let hostText: Substring
        let portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .invalidURL("an IPv6 host lacks its ']'") }
            hostText = authority[authority.index(after: authority.startIndex)..<close]
            let afterHost = authority[authority.index(after: close)...]
            if afterHost.isEmpty {
                portText = nil
            } else if afterHost.hasPrefix(":") {
                portText = afterHost.dropFirst()
            } else {
                throw .invalidURL("only ':port' may follow an IPv6 host")
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostText = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            hostText = authority
            portText = nil
        }
        configuration.host = try decoded(hostText, part: "host")
        if configuration.host.isEmpty { throw .invalidURL("the host is missing") }
        if let portText {
            guard portText.allSatisfy(\.isASCII), let port = Int(portText), (1...65_535).contains(port) else {
                throw .invalidURL("the port must be a number from 1 to 65535")
            }
            configuration.port = port
        }

        let path = rest[pathStart...].dropFirst()
        if path.contains("/") {
            throw .invalidURL("the virtual host must be one path segment; write '/' inside it as %2F")
        }
        configuration.virtualHost = path.isEmpty ? "/" : try decoded(path, part: "virtual host")
        return configuration
    }

    /// `text` with `%XX` sequences replaced by their bytes, which must form UTF-8.
    static func decoded(_ text: Substring, part: String) throws(AMQPError) -> String {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw .invalidURL("the \(part) has a '%' not followed by two hex digits")
            }
            bytes.append(high << 4 | low)
        }
        let string = String(decoding: bytes, as: UTF8.self)
        guard string.utf8.elementsEqual(bytes) else {
            throw .invalidURL("the \(part) does not decode to UTF-8")
        }
        return string
    }

    /// `text` with everything but RFC 3986 unreserved characters percent-encoded.
    static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                result.unicodeScalars.append("%")
                result.unicodeScalars.append(hex[Int(byte >> 4)])
                result.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return result
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
