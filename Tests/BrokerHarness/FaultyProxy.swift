import Foundation
import Glibc
import Synchronization

/// A TCP proxy on 127.0.0.1 in front of the broker (or PostgreSQL) that behaves like a bad network: it cuts what
/// either side writes into pieces of a few bytes, each its own segment, holds some pieces back for a moment, resets
/// every connection when told to, and stalls them all (passing no byte while keeping the sockets open, as a hung
/// peer or a lost route does) for a while or for good; in front of PostgreSQL it can refuse TLS as a man in the
/// middle does. One thread per connection; new connections are accepted throughout, stalled or not.
public final class FaultyProxy: Sendable {
    /// How the proxy treats the bytes it passes on.
    public struct Faults: Sendable {
        /// The sizes of the pieces each write is cut into.
        public var pieces: ClosedRange<Int>
        /// One piece in this many waits `delay` before it goes out; 0 for none.
        public var delayOneIn: Int
        public var delay: Duration

        public init(pieces: ClosedRange<Int>, delayOneIn: Int = 0, delay: Duration = .zero) {
            self.pieces = pieces
            self.delayOneIn = delayOneIn
            self.delay = delay
        }

        /// Bytes passed on as they come.
        public static let none = Faults(pieces: 64 * 1024...64 * 1024)
    }

    /// The port clients connect to on 127.0.0.1.
    public let port: Int
    private let listener: Int32
    private let faults: Faults
    /// Raised by ``resetAll()``: a connection accepted before the raise is reset.
    private let generation = Atomic<Int>(0)
    private let stalledUntil = Mutex<ContinuousClock.Instant?>(nil)
    private let isStopped = Atomic<Bool>(false)
    private let accepted = Atomic<Int>(0)
    private let refusesTLS = Atomic<Bool>(false)
    private let refusedTLSRequests = Atomic<Int>(0)

    /// Listens on a free port and passes every connection on to `targetPort` on 127.0.0.1, with `faults`.
    public init(toPort targetPort: Int, faults: Faults = .none) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        self.faults = faults
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard listener >= 0, bound else { throw HarnessError("proxy: listen failed, errno \(errno)") }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in acceptConnections(toPort: targetPort) }.start()
    }

    /// How many connections the proxy accepted so far.
    public var connectionsAccepted: Int { accepted.load(ordering: .relaxed) }

    /// Resets every open connection (RST to both ends, as a dropped NAT entry or a restarted middlebox does).
    public func resetAll() {
        generation.add(1, ordering: .relaxed)
    }

    /// Passes no byte, on any connection, for `duration`; the sockets stay open.
    public func stall(for duration: Duration) {
        stalledUntil.withLock { $0 = .now + duration }
    }

    /// Passes no byte from now on; the sockets stay open until ``stop()``.
    public func silence() {
        stalledUntil.withLock { $0 = .now + .seconds(1_000_000) }
    }

    /// Answers PostgreSQL's TLS request (SSLRequest) itself with `N` on every connection from now on, as a man in
    /// the middle who wants the session in cleartext does, and passes the rest on.
    public func refuseTLS() {
        refusesTLS.store(true, ordering: .relaxed)
    }

    /// How many TLS requests ``refuseTLS()`` answered.
    public var tlsRequestsRefused: Int { refusedTLSRequests.load(ordering: .relaxed) }

    /// Closes the listener and every connection.
    public func stop() {
        isStopped.store(true, ordering: .relaxed)
    }

    private var isStalled: Bool {
        stalledUntil.withLock { until in until.map { ContinuousClock.now < $0 } ?? false }
    }

    private func acceptConnections(toPort targetPort: Int) {
        defer { Glibc.close(listener) }
        var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        while !isStopped.load(ordering: .relaxed) {
            guard poll(&descriptor, 1, 20) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            accepted.add(1, ordering: .relaxed)
            let born = generation.load(ordering: .relaxed)
            Thread { [self] in relay(client, toPort: targetPort, generation: born) }.start()
        }
    }

    private func relay(_ client: Int32, toPort targetPort: Int, generation born: Int) {
        let broker = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: targetPort)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(broker, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        var reset = false
        defer {
            for descriptor in [client, broker] {
                if reset {
                    // Closing with a zero linger sends RST instead of FIN.
                    var abort = linger(l_onoff: 1, l_linger: 0)
                    setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &abort, socklen_t(MemoryLayout<linger>.size))
                }
                Glibc.close(descriptor)
            }
        }
        guard connected, !refusesTLS.load(ordering: .relaxed) || refuseTLSRequest(from: client, passingOnTo: broker)
        else { return }
        for descriptor in [client, broker] {
            // Each piece leaves as a segment of its own rather than being gathered again by Nagle's algorithm.
            var on: Int32 = 1
            setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        var descriptors = [pollfd(fd: client, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: broker, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var random = SystemRandomNumberGenerator()
        while !isStopped.load(ordering: .relaxed) {
            if generation.load(ordering: .relaxed) != born {
                reset = true
                return
            }
            if isStalled {
                usleep(10_000)
                continue
            }
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            guard poll(&descriptors, 2, 10) >= 0 else { return }
            for (index, (from, to)) in [(client, broker), (broker, client)].enumerated()
            where descriptors[index].revents != 0 {
                let count = read(from, &buffer, buffer.count)
                guard count > 0, pass(buffer[..<count], to: to, random: &random) else { return }
            }
        }
    }

    /// Reads the client's first message, answers it with `N` when it is PostgreSQL's SSLRequest (length 8, code
    /// 80877103) and passes it on otherwise; returns `false` once a socket failed.
    private func refuseTLSRequest(from client: Int32, passingOnTo server: Int32) -> Bool {
        var first = [UInt8](repeating: 0, count: 8)
        var count = 0
        while count < first.count {
            let got = first[count...].withUnsafeMutableBytes { read(client, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return false }
            count += got
        }
        guard first == [0, 0, 0, 8, 0x04, 0xD2, 0x16, 0x2F] else {
            return first.withUnsafeBytes { write(server, $0.baseAddress, $0.count) } == first.count
        }
        refusedTLSRequests.add(1, ordering: .relaxed)
        return [UInt8(ascii: "N")].withUnsafeBytes { write(client, $0.baseAddress, 1) } == 1
    }

    /// Writes `bytes` to `descriptor` in pieces; returns `false` once the socket failed.
    private func pass(_ bytes: ArraySlice<UInt8>, to descriptor: Int32, random: inout SystemRandomNumberGenerator) -> Bool {
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            if faults.delayOneIn > 0, Int.random(in: 0..<faults.delayOneIn, using: &random) == 0 {
                let (seconds, attoseconds) = faults.delay.components
                usleep(UInt32(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
            }
            let end = min(bytes.endIndex, offset + Int.random(in: faults.pieces, using: &random))
            let written = bytes[offset..<end].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
