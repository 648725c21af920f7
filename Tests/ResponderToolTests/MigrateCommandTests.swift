import BrokerHarness
import Foundation
import Responder
import ResponderSQLite
import Testing
import WorkerHarness

/// `responder migrate`: creates the state store's schema and exits 0, and takes only what it uses (`--state`, or
/// `--state-file`), from its command line alone.
@Suite(.timeLimit(.minutes(10)))
struct MigrateCommandTests {
    @Test func createsASQLiteStateFileThatAWorkerOpensAsIs() async throws {
        let folder = try Paths.temporaryFolder("migrate")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("state.sqlite").path
        let result = try await Tool.run(["migrate", "--state", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("migrate: "), "\(result.stdout)")
        let store = try SQLiteStateStore(path: path)
        defer { try? store.close() }
        #expect(try await store.notification("nothing-yet") == nil)
        let again = try await Tool.run(["migrate", "--state", path])
        #expect(again.status == 0, "migrating an up-to-date store changes nothing: \(again.stderr)")
    }

    @Test func offersOnlyTheStateOption() async throws {
        let help = try await Tool.run(["migrate", "--help"])
        #expect(help.status == 0)
        let options = RunHelpTests.optionEntries(help.stdout).filter { !$0.hasPrefix("-h, --help") && !$0.hasPrefix("--version") }
        #expect(options.map { String($0.prefix { $0 != " " }) } == ["--state", "--state-file"], "\(options)")
        let refused = try await Tool.run(["migrate", "--categories", "x.json"])
        #expect(refused.status != 0, "an option migrate does not use is refused")
    }

    /// A shell with a worker's environment names its production store; `migrate` there changes nothing and asks,
    /// in one line, for the store on the command line.
    @Test func theEnvironmentAloneIsRefused() async throws {
        let folder = try Paths.temporaryFolder("migrate")
        defer { try? FileManager.default.removeItem(at: folder) }
        let production = folder.appendingPathComponent("production.sqlite").path
        let secret = try StateSecret.file(holding: production, in: folder)
        for environment in [["RESPONDER_STATE": production], ["RESPONDER_STATE_FILE": secret.path]] {
            let result = try await Tool.run(["migrate"], environment: environment)
            #expect(result.status != 0)
            #expect(
                result.stderr == "Error: --state or --state-file must name the store; this command never takes one "
                    + "from RESPONDER_STATE or RESPONDER_STATE_FILE\n")
        }
        #expect(!FileManager.default.fileExists(atPath: production))
    }

    @Test func aStateFileOnTheCommandLineNamesTheStore() async throws {
        let folder = try Paths.temporaryFolder("migrate")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("state.sqlite").path
        let secret = try StateSecret.file(holding: path, in: folder)
        let result = try await Tool.run(["migrate", "--state-file", secret.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: path))
    }
}
