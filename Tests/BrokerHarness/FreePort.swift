import Glibc
import Synchronization

/// A TCP port nothing listens on now, for a server a test starts (a worker's metrics, a throwaway broker node).
///
/// Taken below Linux's ephemeral range (32768 and up by default), where the kernel never puts the local end of an
/// outgoing connection: a port bound to 0 and closed again is an ephemeral one, which any connection opened before the
/// server binds it (the worker's own to the broker, say) may take, and the server then fails with "Address already
/// in use". Each port is handed out once per test process, so concurrent tests never get the same one.
public enum FreePort {
    private static let range = 20_000..<32_768
    private static let handedOut = Mutex(Set<Int>())

    public static func find() throws -> Int {
        for _ in 0..<1_000 {
            let port = Int.random(in: range)
            guard handedOut.withLock({ $0.insert(port).inserted }) else { continue }
            if try isFree(port) { return port }
        }
        throw HarnessError("no free TCP port in \(range) after 1,000 tries")
    }

    /// Whether binding 127.0.0.1:`port` succeeds now.
    private static func isFree(_ port: Int) throws -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw HarnessError("socket() failed") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return bound == 0
    }
}
