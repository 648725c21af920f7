import Foundation
import Logging

/// A connection to a RabbitMQ broker, owned by one I/O thread (``IOThread``): its own, or one it shares.
///
/// librabbitmq is not thread-safe, so every call into it happens on that thread: the methods here and on
/// ``AMQPChannel`` hand work to it and await its answer, and its I/O passes never run caller code. It wakes when the socket
/// has data or work arrives (poll on the socket and an eventfd), sends and checks heartbeats, and notices a lost
/// connection within two heartbeat intervals: consumers then end with the error, pending publishes and calls fail,
/// and ``events`` yields ``AMQPConnectionEvent/closed(_:)``. Reconnecting is up to the caller.
///
/// When the broker blocks the connection (a memory or disk alarm; see ``AMQPConnectionEvent/blocked(reason:)``),
/// it stops reading from it: publishes are then held in memory and written once it unblocks, and everything else
/// sent meanwhile waits in the socket. Publish and consume on separate connections so consumers keep acking.
///
/// Dropping the last reference (channels keep their connection) closes the connection without waiting.
public final class AMQPConnection: Sendable {
    let core: ConnectionCore

    /// Blocked and unblocked notices, then ``AMQPConnectionEvent/closed(_:)`` as the last event.
    /// Iterate it from one task.
    public let events: AsyncStream<AMQPConnectionEvent>

    private init(core: ConnectionCore) {
        self.core = core
        events = core.events
    }

    deinit {
        try? core.submit(.closeConnection(reply: nil))
    }

    /// Opens a connection and logs in.
    ///
    /// The client announces the `connection.blocked`, `consumer_cancel_notify`, `publisher_confirms`, `basic.nack`,
    /// `authentication_failure_close` and `exchange_exchange_bindings` capabilities, and the configuration's
    /// connection name. A wrong password gives ``AMQPError/connectionClosed(replyCode:replyText:)`` with 403.
    /// Connecting is not cancellable; it takes at most the connect timeout for the socket plus the same again for
    /// the handshake and login, on a thread of its own, so it never stalls the other connections of `thread`.
    ///
    /// - Parameter thread: the thread that does the connection's I/O; `nil` (the default) starts one for it alone,
    ///   which ends with the connection.
    public static func connect(
        _ configuration: AMQPConfiguration,
        on thread: IOThread? = nil,
        logger: Logger = Logger(label: "amqp")
    ) async throws(AMQPError) -> AMQPConnection {
        let ioThread = thread ?? IOThread(name: "amqp-io")
        let core = ConnectionCore(configuration: configuration, thread: ioThread, logger: logger)
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, AMQPError>, Never>) in
            ioThread.open(core) { continuation.resume(returning: $0) }
        }
        if thread == nil { ioThread.endWhenIdle() }
        try outcome.get()
        return AMQPConnection(core: core)
    }

    /// Whether the connection is open: logged in, and not closed or lost.
    public var isOpen: Bool { core.isOpen }

    /// Opens a new channel.
    public func openChannel() async throws(AMQPError) -> AMQPChannel {
        let link = try await core.call { (reply: @escaping Reply<ChannelLink>) in .openChannel(reply: reply) }
        return AMQPChannel(connection: self, link: link)
    }

    /// Closes the connection (connection.close, then waits for close-ok) and returns once its I/O thread has
    /// released everything. Consumers end with ``AMQPError/closed``; publishes the broker has not confirmed yet
    /// fail with it. Closing a closed connection does nothing.
    public func close() async {
        _ = try? await core.call { (reply: @escaping Reply<Void>) in .closeConnection(reply: reply) }
    }
}

extension ConnectionCore {
    /// Submits the command `make` builds around a reply, and waits for that reply.
    func call<Value: Sendable>(
        _ make: (@escaping Reply<Value>) -> Command
    ) async throws(AMQPError) -> Value {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, AMQPError>, Never>) in
            do throws(AMQPError) {
                try submit(make { continuation.resume(returning: $0) })
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }
        return try result.get()
    }
}
