import PostgresNIO
import Synchronization

/// Refuses a server's request for the password in cleartext on a connection that is not TLS-verified, before
/// postgres-nio can answer it: postgres-nio sends the password to any server that asks for it so
/// (`AuthenticationStateMachine` answers `.plaintext` with the password, whatever the connection), and a man in the
/// middle who refuses TLS can ask.
///
/// It sits first in the connection's pipeline and reads the server's bytes until authentication succeeds: the
/// answer to the TLS request (`S` means TLS follows, verified as the URL's `sslmode` says, and the guard steps
/// aside), then whole messages, passed on one by one. An `AuthenticationCleartextPassword` request (`R`, code 3)
/// closes the connection instead. SCRAM, which never reveals the password, and trust pass. When the TLS verifies
/// nothing (`prefer`, `require` without `sslrootcert`), a man in the middle may be its other end: a second guard
/// then reads the messages behind postgres-nio's TLS handler, the way this one reads them without TLS.
final class CleartextPasswordGuard: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private struct State {
        /// Whether the connection asks for TLS first, so the server's first byte answers that.
        var awaitsTLSAnswer: Bool
        var pending = ByteBuffer()
        var done = false
        var refused = false
        var acceptedTLS = false
    }

    private let state: Mutex<State>
    /// The guard behind the TLS handler, when the TLS does not verify the server.
    private let insideTLS: CleartextPasswordGuard?

    /// A guard for a connection that sends a TLS request first when `requestsTLS`, whose TLS checks the server's
    /// certificate when `verifiesServer`.
    init(requestsTLS: Bool, verifiesServer: Bool) {
        state = Mutex(State(awaitsTLSAnswer: requestsTLS))
        insideTLS = requestsTLS && !verifiesServer ? CleartextPasswordGuard(requestsTLS: false, verifiesServer: true) : nil
    }

    /// Whether the guard closed the connection on a cleartext request.
    var refused: Bool { state.withLock { $0.refused } || insideTLS?.refused == true }

    /// Whether the server answered the TLS request with `S`: the connection went on in TLS.
    var acceptedTLS: Bool { state.withLock { $0.acceptedTLS } }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        let wasInTLS = acceptedTLS
        let (pass, refuse) = state.withLock { state -> ([ByteBuffer], Bool) in
            guard !state.done else { return ([bytes], false) }
            state.pending.writeBuffer(&bytes)
            var pass: [ByteBuffer] = []
            if state.awaitsTLSAnswer {
                guard let answer = state.pending.readSlice(length: 1) else { return ([], false) }
                state.awaitsTLSAnswer = false
                pass.append(answer)
                if answer.getInteger(at: answer.readerIndex, as: UInt8.self) == UInt8(ascii: "S") {
                    state.acceptedTLS = true
                    state.done = true
                    pass.append(state.pending)
                    state.pending = ByteBuffer()
                    return (pass, false)
                }
            }
            while let type = state.pending.getInteger(at: state.pending.readerIndex, as: UInt8.self),
                let length = state.pending.getInteger(at: state.pending.readerIndex + 1, as: Int32.self),
                length >= 4, state.pending.readableBytes >= Int(length) + 1
            {
                let message = state.pending.readSlice(length: Int(length) + 1)!
                if type == UInt8(ascii: "R"), let code = message.getInteger(at: message.readerIndex + 5, as: Int32.self) {
                    if code == 3 {
                        state.refused = true
                        state.done = true
                        return (pass, true)
                    }
                    // AuthenticationOk: nothing more to guard.
                    if code == 0 { state.done = true }
                }
                pass.append(message)
                if state.done {
                    pass.append(state.pending)
                    state.pending = ByteBuffer()
                    break
                }
            }
            return (pass, false)
        }
        let enteredTLS = !wasInTLS && acceptedTLS
        for buffer in pass where buffer.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(buffer)) }
        if refuse { context.close(promise: nil) }
        // postgres-nio added its TLS handler while it read the `S`; the server's messages come out of it.
        if enteredTLS, let insideTLS {
            do {
                let tls = try context.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self)
                try context.pipeline.syncOperations.addHandler(insideTLS, position: .after(tls))
            } catch {
                context.close(promise: nil)
            }
        }
    }
}
