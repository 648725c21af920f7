import Responder
import Testing

@testable import ResponderPostgres

/// The state URL comes from outside: it is read strictly, and its password shows nowhere.
@Suite struct PostgresURLTests {
    @Test func aFullURLIsRead() throws {
        let url = try PostgresURL(
            "postgresql://fleet%40prod:p%40ss%3Aw%2Fo%25rd@db.example.com:6432/responder%2Dstate?sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem&pool_size=25&connect_timeout=3&schema=worker_1"
        )
        #expect(url.username == "fleet@prod")
        #expect(url.password == "p@ss:w/o%rd")
        #expect(url.host == "db.example.com")
        #expect(url.port == 6432)
        #expect(url.database == "responder-state")
        #expect(url.tlsMode == .verifyFull)
        #expect(url.rootCertificatePath == "/etc/ca.pem")
        #expect(url.poolSize == 25)
        #expect(url.connectTimeout == .seconds(3))
        #expect(url.schema == "worker_1")
    }

    @Test func defaultsAreLibpqs() throws {
        let url = try PostgresURL("postgres://responder@[::1]")
        #expect(url.host == "::1")
        #expect(url.port == 5432)
        #expect(url.password == nil)
        #expect(url.database == "responder")
        #expect(url.tlsMode == .preferVerified, "not libpq's: verified whenever TLS is used")
        #expect(url.poolSize == 10)
        #expect(url.schema == "public")
    }

    /// The default verifies with the system's CAs or with `sslrootcert`; the modes that do not are named so, in
    /// a warning that holds no password.
    @Test func unverifiedModesAreNamedSo() throws {
        let withCA = try PostgresURL("postgres://u:p@h/d?sslrootcert=%2Fca.pem")
        #expect(withCA.tlsMode == .preferVerified && withCA.rootCertificatePath == "/ca.pem")
        for verified in ["", "?sslrootcert=%2Fca.pem", "?sslmode=verify-full", "?sslmode=verify-ca", "?sslmode=require&sslrootcert=%2Fca.pem"] {
            #expect(try PostgresURL("postgres://u:s3cr3t@h/d\(verified)").unverifiedTLSWarning == nil, "\(verified)")
        }
        for mode in ["prefer", "require", "disable"] {
            let warning = try #require(try PostgresURL("postgres://u:s3cr3t@h/d?sslmode=\(mode)").unverifiedTLSWarning)
            #expect(warning.hasPrefix("the PostgreSQL connection is not verified (sslmode=\(mode)"), "\(warning)")
            #expect(!warning.contains("s3cr3t"))
        }
    }

    @Test func thePasswordShowsNowhere() throws {
        let url = try PostgresURL("postgres://u:s3cr3t-pw@127.0.0.1:5/d?sslmode=require")
        #expect(url.description == "postgres://u:***@127.0.0.1:5/d?sslmode=require&pool_size=10")
        #expect(!String(reflecting: url).contains("s3cr3t"))
        var dumped = ""
        dump(url, to: &dumped)
        #expect(!dumped.contains("s3cr3t"))
        #expect(!"\(StateLocation.postgres(url))".contains("s3cr3t"))
    }

    @Test(arguments: [
        "",
        "mysql://u:p@h/d",
        "postgres:/u:p@h/d",
        "postgres://h/d",
        "postgres://u:p@h/d#frag",
        "postgres://u:p@x@h/d",
        "postgres://:p@h/d",
        "postgres://u:p@/d",
        "postgres://u:p@h:0/d",
        "postgres://u:p@h:65536/d",
        "postgres://u:p@h:-1/d",
        "postgres://u:p@h:54a/d",
        "postgres://u:p@h:/d",
        "postgres://u:p@[::1/d",
        "postgres://u:p@[zz]/d",
        "postgres://u:p@h!/d",
        "postgres://u:p@h/d/e",
        "postgres://u:p%4@h/d",
        "postgres://u:p%zz@h/d",
        "postgres://u:p%00@h/d",
        "postgres://u:p%0a@h/d",
        "postgres://u:p%ff@h/d",
        "postgres://u:p@h/d x",
        "postgres://u:pé@h/d",
        "postgres://u:p@h/d\u{0}",
        "postgres://u:p@h/d?sslmode=maybe",
        "postgres://u:p@h/d?sslmode=disable&sslmode=require",
        "postgres://u:p@h/d?pool_size=0",
        "postgres://u:p@h/d?pool_size=1001",
        "postgres://u:p@h/d?pool_size=",
        "postgres://u:p@h/d?connect_timeout=0",
        "postgres://u:p@h/d?schema=Public",
        "postgres://u:p@h/d?schema=a;drop",
        "postgres://u:p@h/d?schema=1a",
        "postgres://u:p@h/d?password=x",
        "postgres://u:p@h/d?sslmode",
        "postgres://u:p@h/d?&",
        "postgres://u:p@h/d?sslmode=prefer&sslrootcert=%2Fca.pem",
        "postgres://u:p@h/d?sslmode=disable&sslrootcert=%2Fca.pem",
        "postgres://u:p@h/d?sslrootcert=",
    ])
    func aMalformedURLIsRefused(text: String) throws {
        #expect(throws: PostgresURLError.self) { try PostgresURL(text) }
    }

    @Test func anOverlongURLIsRefused() {
        let text = "postgres://u:p@h/" + String(repeating: "d", count: PostgresURL.maximumLength)
        #expect(throws: PostgresURLError.tooLong) { try PostgresURL(text) }
    }

    /// However the password is misplaced, the error does not repeat it.
    @Test(arguments: [
        "postgres://u:topsecret@h:topsecret/d",
        "postgres://u:topsecret%zz@h/d",
        "postgres://u:p@h/d?topsecret=1",
        "postgres://u:p@h/d?topsecret",
        "postgres://u:p@h/d?pool_size=topsecret",
        "postgres://u:topsecret@h/d?sslmode=topsecret",
        "postgres://u@topsecret@h/d",
    ])
    func anErrorNeverRepeatsThePassword(text: String) throws {
        let error = try #require(throws: PostgresURLError.self) { try PostgresURL(text) }
        #expect(!"\(error)".contains("topsecret"), "\(error)")
    }
}
