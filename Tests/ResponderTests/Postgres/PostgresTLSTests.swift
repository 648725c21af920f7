import Foundation
import Logging
import PostgresNIO
import Responder
import Testing
import WorkerHarness

@testable import ResponderPostgres

/// The safe defaults of TLS and authentication, against scripts/postgres's server: its certificate is for
/// localhost, by a throwaway CA no system trusts, and its role `responder_cleartext` is asked for the password in
/// cleartext on connections without TLS.
@Suite(.enabled(if: TestPostgres.isAvailable, "needs PostgreSQL: run scripts/test"), .timeLimit(.minutes(2)))
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
        let (connection, _) = try await url.connect(id: 9, logger: .quiet)
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
}
