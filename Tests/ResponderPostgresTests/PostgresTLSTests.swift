import BrokerHarness
import Foundation
import Logging
import PipelineHarness
import PostgresNIO
import Responder
import StoreHarness
import Testing

@testable import ResponderPostgres

/// The safe defaults of TLS and authentication, against scripts/postgres's server: its certificate is for
/// localhost, by a throwaway CA no system trusts, and its role `responder_cleartext` is asked for the password in
/// cleartext, with TLS or without.
@Suite(.enabled(if: TestPostgres.isAvailable, "needs PostgreSQL: run scripts/test"), .timeLimit(.minutes(10)))
struct PostgresTLSTests {
    /// The folder of the server's CA (`POSTGRES_TLS_DIR`).
    private func caFile() throws -> String {
        try #require(ProcessInfo.processInfo.environment["POSTGRES_TLS_DIR"], "run scripts/test") + "/ca.pem"
    }

    /// The test server's URL as an operator writes it, without `sslmode`, naming the server as its certificate does.
    private func urlWithoutSSLMode() throws -> PostgresURL {
        guard let text = TestPostgres.url else { throw TestPostgres.Missing() }
        var url = try PostgresURL("\(text)?schema=t_tls_\(UInt32.random(in: .min ... .max))")
        url.host = "localhost"
        return url
    }

    /// Whether `url`'s connection is encrypted, as the server sees it.
    private func usesTLS(_ url: PostgresURL) async throws -> Bool {
        let (connection, _) = try await url.connect(
            id: 9, startupParameters: PostgresURL.migrationStartupParameters, logger: .quiet)
        defer { Task { try? await connection.close() } }
        var encrypted = false
        for try await ssl in try await connection.query(
            "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", logger: .quiet
        ).decode(Bool.self) {
            encrypted = ssl
        }
        return encrypted
    }

    @Test func byDefaultAServerWhoseCertificateCannotBeVerifiedIsRefused() async throws {
        let url = try urlWithoutSSLMode()
        #expect(url.tlsMode == .preferVerified)
        #expect(url.unverifiedTLSWarning == nil)
        let refusal = try await #require(throws: StateStoreUnavailable.self) {
            try await PostgresStateStore.migrate(url, logger: .quiet)
        }
        // The certificate is the reason, not a refused port or a password.
        #expect(refusal.reason.contains("certificate") || refusal.reason.contains("CERTIFICATE"), "\(refusal.reason)")
    }

    @Test func byDefaultWithTheServersCAItIsVerifiedAndUsed() async throws {
        var url = try urlWithoutSSLMode()
        url.rootCertificatePath = try caFile()
        try await PostgresStateStore.migrate(url, logger: .quiet)
        #expect(try await usesTLS(url))
        // The pool's connections too, and they must stay in TLS: the schema check saw it, so the pool is given
        // verify-full, which no man in the middle refusing TLS can talk down to a cleartext password request.
        let poolURL = try await PostgresStateStore.checkSchema(url, logger: .quiet)
        #expect(poolURL.tlsMode == .verifyFull)
        #expect(poolURL.rootCertificatePath == url.rootCertificatePath)
        let store = PostgresStateStore(url: poolURL, logger: .quiet)
        let pool = Task { await store.run() }
        defer { pool.cancel() }
        try await store.checkAvailability()
    }

    /// A connection without TLS leaves the pool's mode as the URL says; only `prefer-verified` is raised, and only
    /// once TLS was seen.
    @Test func onlyTheDefaultModeIsRaisedAndOnlyAfterTLS() async throws {
        let plain = try TestPostgres.freshURL()
        #expect(plain.tlsMode == .disable)
        try await PostgresStateStore.migrate(plain, logger: .quiet)
        #expect(try await PostgresStateStore.checkSchema(plain, logger: .quiet).tlsMode == .disable)
        for mode in PostgresURL.TLSMode.allCases where mode != .preferVerified {
            var url = plain
            url.tlsMode = mode
            #expect(url.requiringTLS().tlsMode == mode)
        }
    }

    /// Without TLS the role's password is asked for in cleartext: the connection is closed before the client
    /// answers, so the password never leaves it (with it, this role would log in). Over verified TLS the same role
    /// logs in (and then finds no tables in a fresh schema).
    @Test func aCleartextPasswordRequestWithoutVerifiedTLSIsRefused() async throws {
        var url = try TestPostgres.freshURL()
        url.username = "responder_cleartext"
        #expect(url.tlsMode == .disable)
        let refused = try await #require(throws: StateStoreUnavailable.self) {
            try await PostgresStateStore.checkSchema(url, logger: .quiet)
        }
        #expect(refused.reason.contains("asked for the password in cleartext"), "\(refused)")

        url.tlsMode = .verifyFull
        url.host = "localhost"
        url.rootCertificatePath = try caFile()
        await #expect(throws: PostgresSchemaNotMigrated.self) { try await PostgresStateStore.checkSchema(url, logger: .quiet) }
    }

    /// TLS that verifies nothing (`prefer`, `require` without `sslrootcert`) may end at a man in the middle who
    /// presents any certificate: the server's cleartext request is refused inside it too. With `sslrootcert` the
    /// same TLS verifies the server, and the role logs in (and then finds no tables in a fresh schema).
    @Test(arguments: [PostgresURL.TLSMode.prefer, .require])
    func aCleartextPasswordRequestInsideUnverifiedTLSIsRefused(mode: PostgresURL.TLSMode) async throws {
        var url = try TestPostgres.freshURL()
        url.username = "responder_cleartext"
        url.tlsMode = mode
        let refused = try await #require(throws: StateStoreUnavailable.self) {
            try await PostgresStateStore.checkSchema(url, logger: .quiet)
        }
        #expect(refused.reason.contains("asked for the password in cleartext"), "\(refused)")

        url.rootCertificatePath = try caFile()
        await #expect(throws: PostgresSchemaNotMigrated.self) { try await PostgresStateStore.checkSchema(url, logger: .quiet) }
    }

    /// A man in the middle lets the pool's first connection into TLS (where the server asks `responder_cleartext`
    /// for SCRAM), then resets it and refuses TLS on the next: the server asks for the password in cleartext, and
    /// the pool's new connection refuses it as the schema check's does, whatever the `sslmode`. With the password
    /// sent, the role would log in and the operation would succeed.
    @Test(arguments: [PostgresURL.TLSMode.preferVerified, .prefer])
    func aLaterPoolConnectionAskedForTheCleartextPasswordRefusesIt(mode: PostgresURL.TLSMode) async throws {
        var url = try TestPostgres.freshURL()
        try await PostgresStateStore.migrate(url, logger: .quiet)
        try await TestPostgres.run(
            [
                "GRANT USAGE ON SCHEMA \(url.schema) TO responder_cleartext",
                "GRANT SELECT ON notification, inbox TO responder_cleartext",
            ], in: url)
        let proxy = try FaultyProxy(toPort: url.port)
        defer { proxy.stop() }
        url.username = "responder_cleartext"
        url.host = "localhost"
        url.port = proxy.port
        url.tlsMode = mode
        url.rootCertificatePath = try caFile()
        let store = PostgresStateStore(url: url, timeout: .seconds(5), logger: .quiet)
        let pool = Task { await store.run() }
        defer { pool.cancel() }
        try await store.checkAvailability()

        proxy.refuseTLS()
        proxy.resetAll()
        // An operation may meet the reset connection before the pool replaces it.
        let deadline = ContinuousClock.now + hangGuard
        var refusal: StateStoreUnavailable?
        while refusal == nil, ContinuousClock.now < deadline {
            do {
                try await store.checkAvailability()
                Issue.record("a connection without TLS logged in: the password went in cleartext")
                break
            } catch let error as StateStoreUnavailable where error.reason.contains("asked for the password in cleartext") {
                refusal = error
            } catch {}
        }
        #expect(refusal != nil)
        #expect(proxy.tlsRequestsRefused > 0)
    }
}
