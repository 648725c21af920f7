import Foundation
import Glibc
import Synchronization

/// A TCP relay between one client and the broker that can stop passing bytes while keeping both sockets open:
/// to the client it looks like a broker that hung, which only missing heartbeats reveal.
final class SilenceableRelay: Sendable {
    /// The port clients connect to on 127.0.0.1.
    let port: Int
    private let listener: Int32
    private let isSilent = Atomic<Bool>(false)
    private let isStopped = Atomic<Bool>(false)

    init(toPort targetPort: Int) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 1) == 0
                    && getsockname(listener, $0, &length) == 0
            }
        }
        guard listener >= 0, bound else { throw RelayFailed(step: "listen", code: errno) }
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in self.relay(toPort: targetPort) }
        thread.start()
    }

    /// Stops passing bytes in both directions; the sockets stay open.
    func silence() {
        isSilent.store(true, ordering: .relaxed)
    }

    /// Closes everything.
    func stop() {
        isStopped.store(true, ordering: .relaxed)
    }

    private func relay(toPort targetPort: Int) {
        let client = accept(listener, nil, nil)
        Glibc.close(listener)
        let broker = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: targetPort)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(broker, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        defer {
            Glibc.close(client)
            Glibc.close(broker)
        }
        guard client >= 0, connected else { return }
        var descriptors = [pollfd(fd: client, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: broker, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !isStopped.load(ordering: .relaxed) {
            if isSilent.load(ordering: .relaxed) {
                usleep(50_000)
                continue
            }
            guard poll(&descriptors, 2, 50) >= 0 else { return }
            for (from, to) in [(client, broker), (broker, client)] {
                let index = from == client ? 0 : 1
                guard descriptors[index].revents != 0 else { continue }
                let count = read(from, &buffer, buffer.count)
                guard count > 0, write(to, buffer, count) == count else { return }
            }
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    struct RelayFailed: Error {
        var step: String
        var code: Int32
    }
}
