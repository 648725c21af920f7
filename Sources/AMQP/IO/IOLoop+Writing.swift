import CRabbitMQ
import CRabbitMQShim
import Glibc

// Writing a pass's frames: one buffer (``OutgoingFrames``), written through librabbitmq's socket so that TCP and
// TLS take the same path, in as few calls as the non-blocking socket accepts.
//
// librabbitmq still sends heartbeats itself, from its read calls, once its own timer says so. That timer only
// counts what librabbitmq wrote, so it sends one per interval even while these writes keep the connection busy:
// a few bytes more, never fewer heartbeats. Its heartbeat can only fall between two flushes, since a flush
// returns once every byte is written, so it never splits a frame (nor, with TLS, a pending SSL_write).

extension IOLoop {
    /// A pass writes what it encoded so far once it holds this many bytes, so large publishes do not pile up.
    static let flushThreshold = 1 << 20

    /// Writes every encoded frame, then resolves the publishes that only waited for that. A write failure, even
    /// after part of the frames went out, ends the connection; returns `false` then.
    @discardableResult
    func flush() -> Bool {
        guard !output.isEmpty else { return true }
        let status = writeAll(output.bytes)
        output.removeAll()
        if status != AMQP_STATUS_OK.rawValue {
            // A close that cannot be written ends the connection as the close it was meant to be.
            machine.finish(machine.isClosing ? nil : .library(status))
        }
        let outcome = status == AMQP_STATUS_OK.rawValue ? nil : machine.terminalError
        for confirmation in unflushedPublishes {
            confirmation.resolve(outcome)
        }
        unflushedPublishes.removeAll(keepingCapacity: true)
        return status == AMQP_STATUS_OK.rawValue
    }

    /// Fails the publishes encoded but never written, because the connection ended first.
    func discardUnflushed() {
        output.removeAll()
        for confirmation in unflushedPublishes {
            confirmation.resolve(machine.terminalError)
        }
        unflushedPublishes.removeAll()
    }

    /// Writes all of `bytes`, waiting in poll() while the socket cannot take more; returns librabbitmq's status.
    private func writeAll(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            // After a TLS write that could not finish, the retry must pass the same bytes: `offset` did not move.
            let result = c_rabbitmq_socket_send(librarySocket, bytes.baseAddress! + offset, bytes.count - offset)
            if result > 0 {
                offset += result
                continue
            }
            let event: Int32
            switch result {
            case C_RABBITMQ_SOCKET_NEEDS_WRITE: event = POLLOUT
            case C_RABBITMQ_SOCKET_NEEDS_READ: event = POLLIN
            default: return result == 0 ? AMQP_STATUS_SOCKET_ERROR.rawValue : Int32(result)
            }
            let status = waitForSocket(event)
            guard status == AMQP_STATUS_OK.rawValue else { return status }
        }
        return AMQP_STATUS_OK.rawValue
    }

    /// Waits until the socket is ready for `event`. A broker that takes no byte for two heartbeat intervals is
    /// gone, as one that sends none is; without heartbeats the wait is as unbounded as librabbitmq's own.
    private func waitForSocket(_ event: Int32) -> Int32 {
        var descriptor = pollfd(fd: socket, events: Int16(event), revents: 0)
        let timeout = heartbeat.map { Int32(clamping: ($0 * 2).components.seconds * 1000) } ?? -1
        while true {
            let ready = poll(&descriptor, 1, timeout)
            if ready > 0 { return AMQP_STATUS_OK.rawValue }
            if ready == 0 { return AMQP_STATUS_HEARTBEAT_TIMEOUT.rawValue }
            if errno != EINTR { return AMQP_STATUS_SOCKET_ERROR.rawValue }
        }
    }
}
