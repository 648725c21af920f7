import CRabbitMQ
import CRabbitMQShim
import Glibc

/// A logged-in librabbitmq connection and what was negotiated for it; the ``IOLoop`` takes it over.
struct Session {
    let state: amqp_connection_state_t
    let socket: Int32
    /// The negotiated heartbeat interval, `nil` when heartbeats are off.
    let heartbeat: Duration?
    let channelMax: UInt16
    /// The negotiated frame size.
    let frameMax: Int

    /// Opens the socket (TCP or TLS), then does the AMQP handshake and login, on the calling (I/O) thread.
    static func open(_ configuration: AMQPConfiguration, arena: Arena) -> Result<Session, AMQPError> {
        guard let state = amqp_new_connection() else { return .failure(.library(AMQP_STATUS_NO_MEMORY.rawValue)) }
        switch logIn(state, configuration, arena: arena) {
        case .success:
            let heartbeat = amqp_get_heartbeat(state)
            let channelMax = amqp_get_channel_max(state)
            return .success(
                Session(
                    state: state,
                    socket: amqp_get_sockfd(state),
                    heartbeat: heartbeat > 0 ? .seconds(heartbeat) : nil,
                    channelMax: channelMax > 0 && channelMax <= Int32(UInt16.max) ? UInt16(channelMax) : UInt16.max,
                    frameMax: Int(amqp_get_frame_max(state))))
        case .failure(let error):
            amqp_destroy_connection(state)
            return .failure(error)
        }
    }

    private static func logIn(
        _ state: amqp_connection_state_t, _ configuration: AMQPConfiguration, arena: Arena
    ) -> Result<Void, AMQPError> {
        let socket: OpaquePointer
        if let tls = configuration.tls {
            guard let tlsSocket = amqp_ssl_socket_new(state) else { return .failure(.library(AMQP_STATUS_SSL_ERROR.rawValue)) }
            socket = tlsSocket
            let status = configure(tlsSocket, tls)
            guard status == AMQP_STATUS_OK.rawValue else { return .failure(.library(status)) }
        } else {
            guard let tcpSocket = amqp_tcp_socket_new(state) else { return .failure(.library(AMQP_STATUS_NO_MEMORY.rawValue)) }
            socket = tcpSocket
        }

        var timeout = timeval(configuration.connectTimeout)
        let opened = amqp_socket_open_noblock(socket, configuration.host, Int32(clamping: configuration.port), &timeout)
        guard opened == AMQP_STATUS_OK.rawValue else {
            return .failure(
                ConnectFailure.error(
                    status: opened, host: configuration.host, port: configuration.port,
                    timeout: configuration.connectTimeout))
        }
        amqp_set_handshake_timeout(state, &timeout)

        var properties = arena.table(clientProperties(configuration))
        defer { arena.recycle() }
        let reply = c_rabbitmq_login_plain(
            state, configuration.virtualHost, 0, Int32(clamping: configuration.frameMax),
            heartbeatSeconds(configuration.heartbeat), &properties, configuration.user, configuration.password)
        switch reply.reply_type {
        case AMQP_RESPONSE_NORMAL:
            return .success(())
        case AMQP_RESPONSE_SERVER_EXCEPTION:
            let error = AMQPError.closing(reply.reply)
            if reply.reply.id == AMQP_CONNECTION_CLOSE_METHOD {
                var closeOK = amqp_connection_close_ok_t()
                _ = amqp_send_method(state, 0, AMQP_CONNECTION_CLOSE_OK_METHOD, &closeOK)
            }
            return .failure(error)
        default:
            return .failure(.library(reply.library_error))
        }
    }

    /// CA file (the system bundle by default, since 0.11 does not load the system store), client key, verification.
    private static func configure(_ socket: OpaquePointer, _ tls: TLSConfiguration) -> Int32 {
        let caFile = tls.caCertificatePath ?? TLSConfiguration.systemCABundlePath
        var status = amqp_ssl_socket_set_cacert(socket, caFile)
        guard status == AMQP_STATUS_OK.rawValue else { return status }
        if let certificate = tls.clientCertificatePath, let key = tls.clientKeyPath {
            status = amqp_ssl_socket_set_key(socket, certificate, key)
            guard status == AMQP_STATUS_OK.rawValue else { return status }
        }
        amqp_ssl_socket_set_verify_peer(socket, tls.verifyPeer ? 1 : 0)
        amqp_ssl_socket_set_verify_hostname(socket, tls.verifyHostname ? 1 : 0)
        return AMQP_STATUS_OK.rawValue
    }

    private static func clientProperties(_ configuration: AMQPConfiguration) -> FieldTable {
        var properties: FieldTable = [
            "capabilities": [
                "connection.blocked": true,
                "consumer_cancel_notify": true,
                "publisher_confirms": true,
                "basic.nack": true,
                "authentication_failure_close": true,
                "exchange_exchange_bindings": true,
            ]
        ]
        if let name = configuration.connectionName {
            properties["connection_name"] = .string(name)
        }
        return properties
    }

    /// Whole seconds, rounded up so a short interval does not turn heartbeats off.
    private static func heartbeatSeconds(_ heartbeat: Duration) -> Int32 {
        let (seconds, attoseconds) = heartbeat.components
        guard seconds >= 0, heartbeat > .zero else { return 0 }
        return Int32(clamping: seconds + (attoseconds > 0 ? 1 : 0))
    }
}

extension timeval {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self.init(tv_sec: Int(max(0, seconds)), tv_usec: Int(max(0, attoseconds) / 1_000_000_000_000))
    }
}
