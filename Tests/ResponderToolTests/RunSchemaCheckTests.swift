import Foundation
import Testing
import WorkerHarness

/// `responder run` never creates tables: on a PostgreSQL schema `responder migrate` has not prepared, it stops at
/// start with one line saying so.
@Suite(
    .enabled(if: ProcessInfo.processInfo.environment["POSTGRES_URL"] != nil, "needs PostgreSQL: run scripts/test"),
    .timeLimit(.minutes(10)))
struct RunSchemaCheckTests {
    @Test func runRefusesASchemaWithoutTablesNamingMigrate() async throws {
        let server = try #require(ProcessInfo.processInfo.environment["POSTGRES_URL"])
        let schema = "t_run_\(UInt32.random(in: .min ... .max))"
        // In the environment, as a deployment passes it, so the password is not on the command line.
        let result = try await Tool.run(
            ["run"], environment: ["RESPONDER_STATE": "\(server)?sslmode=disable&schema=\(schema)"])
        #expect(result.status != 0)
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("responder migrate") }
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(lines.first?.contains("the PostgreSQL schema \(schema) has no state store tables") == true, "\(result.stderr)")
        // sslmode=disable is named as unverified, in one warning that holds no password.
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("the PostgreSQL connection is not verified") }
        #expect(warnings.count == 1, "\(result.stderr)")
        let password = try #require(URLComponents(string: server)?.password)
        #expect(!result.stderr.contains(password))
    }
}
