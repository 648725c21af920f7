import CRabbitMQ
import Glibc

/// Why opening the socket to the broker failed, in words an operator can act on: the cause and where
/// ("connection refused by 127.0.0.1:5672", "timed out", "no such host"), never the URL or its password.
///
/// librabbitmq 0.11 reports a refused or unreachable connect as `AMQP_STATUS_SOCKET_ERROR` alone: it reads the
/// connect's outcome with `getsockopt(SO_ERROR)` and drops it, leaving `errno` at `EINPROGRESS`. So the cause is
/// learned by connecting once more, to the same addresses in the same non-blocking way, after the failure; it only
/// runs when the connection could not be opened.
enum ConnectFailure {
    /// The error for `amqp_socket_open_noblock`'s failing `status` when connecting to `host`:`port`.
    static func error(status: Int32, host: String, port: Int, timeout: Duration) -> AMQPError {
        let address = hostAndPort(host, port)
        let message: String
        switch status {
        case AMQP_STATUS_SOCKET_ERROR.rawValue:
            message = probe(host: host, port: port, timeout: timeout)
                ?? "\(String(cString: amqp_error_string2(status))) connecting to \(address)"
        case AMQP_STATUS_TIMEOUT.rawValue:
            message = "timed out connecting to \(address) after \(timeout)"
        case AMQP_STATUS_HOSTNAME_RESOLUTION_FAILED.rawValue:
            message = resolutionProblem(host: host, port: port)
        default:
            message = "\(String(cString: amqp_error_string2(status))) connecting to \(address)"
        }
        return .library(status: status, message: message)
    }

    /// `host:port`, an IPv6 address in brackets.
    static func hostAndPort(_ host: String, _ port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// What the resolver says about `host`: "no such host" when it has no address.
    private static func resolutionProblem(host: String, port: Int) -> String {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, String(port), &hints, &list)
        if let list { freeaddrinfo(list) }
        switch code {
        case EAI_NONAME: return "no such host \(hostAndPort(host, port))"
        case 0: return "cannot resolve \(hostAndPort(host, port))"
        default: return "cannot resolve \(hostAndPort(host, port)): \(String(cString: gai_strerror(code)))"
        }
    }

    /// The connect error of `host`'s addresses, tried in librabbitmq's order, for the first that fails
    /// ("connection refused by 127.0.0.1:5672"); `nil` when one connects (librabbitmq would have stopped there, so
    /// its failure was another).
    private static func probe(host: String, port: Int, timeout: Duration) -> String? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_protocol = Int32(IPPROTO_TCP)
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, String(port), &hints, &list)
        guard code == 0, let list else { return resolutionProblem(host: host, port: port) }
        defer { freeaddrinfo(list) }
        var first: String?
        var next: UnsafeMutablePointer<addrinfo>? = list
        while let entry = next {
            next = entry.pointee.ai_next
            let error = connectError(entry.pointee, timeout: timeout)
            guard error != 0 else { return nil }
            let described = describe(error, address: hostAndPort(numericHost(entry.pointee) ?? host, port))
            first = first ?? described
        }
        return first
    }

    /// The errno of a non-blocking connect to one address, 0 when it connected.
    private static func connectError(_ address: addrinfo, timeout: Duration) -> Int32 {
        let socket = Glibc.socket(address.ai_family, address.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), address.ai_protocol)
        guard socket >= 0 else { return errno }
        defer { close(socket) }
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
        if connect(socket, address.ai_addr, address.ai_addrlen) == 0 { return 0 }
        guard errno == EINPROGRESS else { return errno }
        var descriptor = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let ready = poll(&descriptor, 1, milliseconds)
        if ready == 0 { return ETIMEDOUT }
        if ready < 0 { return errno }
        var result: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(socket, SOL_SOCKET, SO_ERROR, &result, &length) == 0 else { return errno }
        return result
    }

    /// One address's failure in words: "connection refused by 127.0.0.1:5672", "timed out connecting to …".
    private static func describe(_ error: Int32, address: String) -> String {
        switch error {
        case ECONNREFUSED: "connection refused by \(address)"
        case ETIMEDOUT: "timed out connecting to \(address)"
        case EHOSTUNREACH: "no route to host \(address)"
        case ENETUNREACH: "network unreachable for \(address)"
        default: "cannot connect to \(address): \(String(cString: strerror(error)))"
        }
    }

    /// The address as digits (`127.0.0.1`, `::1`), so a name that resolves to several says which one failed.
    private static func numericHost(_ address: addrinfo) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let code = getnameinfo(
            address.ai_addr, address.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST)
        guard code == 0 else { return nil }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
