import BrokerHarness
import Foundation
import RedGreenExample
import Testing
import WorkerHarness

@testable import ResponderCommands

/// A number out of range or past overflow, or a file that cannot be read, stops a command with one line naming
/// the flag, the variable or the file; in process for every setting, through the binary for a few.
@Suite struct SettingErrorTests {
    static let empty = EnvironmentFallback(environment: [:])

    /// Every whole-number setting with its flag and variable, and the values just outside its range.
    static let numbers: [(Setting<Int>, [String])] = [
        (Settings.heartbeat, ["0", "65536"]), (Settings.deliveryLimit, ["0", "2147483648"]),
        (Settings.inboxRetentionHours, ["0", "876001", "9223372036854775807"]),
        (Settings.notificationRetentionDays, ["0", "36501", "99999999999999999999"]),
        (Settings.prefetch, ["0", "65536"]), (Settings.concurrency, ["0", "10001", "-1"]),
        (Settings.maxBodySize, ["0", "536870913"]), (Settings.metricsPort, ["0", "65536"]),
        (Settings.gracePeriod, ["0", "3601"]), (Settings.repeatCount, ["0", "1000001"]), (Settings.window, ["0", "100001"]),
        (Settings.limit, ["0", "9223372036854775808"]), (Settings.healthPort, ["0", "70000"]),
    ]

    @Test func numbersOutsideTheirRangeNameTheFlagOrTheVariable() {
        for (setting, values) in Self.numbers {
            for value in values + ["ten", "1.5", ""] {
                let flag = "--\(setting.flag) \(value)"
                #expect(throws: SettingError.self, "\(flag)") { try setting.resolve(value, Self.empty) }
                #expect((try? setting.resolve(value, Self.empty)) == nil)
                #expect(Self.message { try setting.resolve(value, Self.empty) }.hasPrefix(flag + ": must be"))
                guard let variable = setting.variable, !value.isEmpty else { continue }
                let environment = EnvironmentFallback(environment: [variable: value])
                #expect(Self.message { try setting.resolve(nil, environment) }.hasPrefix("\(variable)=\(value): must be"))
            }
        }
    }

    @Test func theEdgesOfEachRangeAreAccepted() throws {
        #expect(try Settings.prefetch.resolve("65535", Self.empty) == 65535)
        #expect(try Settings.prefetch.resolve("1", Self.empty) == 1)
        #expect(try Settings.inboxRetentionHours.resolve("876000", Self.empty) == 876_000)
        #expect(try Settings.retryDelays.resolve("1, 4294967", Self.empty) == [1, 4_294_967])
    }

    @Test func retryDelaysPastTheQueueTTLAreRefused() {
        #expect(Self.message { try Settings.retryDelays.resolve("1,4294968", Self.empty) }
            == "--retry-delays 1,4294968: must be whole numbers from 1 to 4294967, comma-separated")
    }

    @Test func decimalsAreCheckedToo() {
        #expect(Self.message { try Settings.rate.resolve("0", Self.empty) }.hasPrefix("--rate 0: must be a number"))
        #expect(Self.message { try Settings.healthTimeout.resolve("nan", Self.empty) }.hasPrefix("--timeout nan:"))
        #expect(Self.message { try Settings.healthTimeout.resolve("inf", Self.empty) }.hasPrefix("--timeout inf:"))
    }

    @Test func namesLongerThanAMQPAllowsAreRefused() {
        let long = String(repeating: "q", count: 256)
        #expect(Self.message { try Settings.inputQueue.resolve(long, Self.empty) }
            == "--input-queue \(long): must be a name of 1 to 255 bytes (256 given)")
    }

    @Test func aLogLevelMustBeOneOfTheNames() {
        #expect(Self.message { try Settings.logLevel.resolve("loud", Self.empty) }
            == "--log-level loud: must be one of trace, debug, info, notice, warning, error, critical")
    }

    /// Every file setting, and the secret file, says which file and why.
    @Test func filesThatCannotBeReadSayWhichAndWhy() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing.pem").path
        for setting in [Settings.caFile, Settings.certFile, Settings.keyFile, Settings.categories, Settings.expect] {
            #expect(Self.message { try setting.resolve(missing, Self.empty) }
                == "--\(setting.flag) \(missing): cannot read \(missing): No such file or directory")
            #expect(Self.message { try setting.resolve(folder.path, Self.empty) }
                == "--\(setting.flag) \(folder.path): cannot read \(folder.path): it is a folder")
        }
        let secret = EnvironmentFallback(environment: ["RESPONDER_AMQP_URL_FILE": missing])
        #expect(Self.message { try secret.brokerURL(nil) }
            == "RESPONDER_AMQP_URL_FILE: cannot read \(missing): No such file or directory")
        #expect(Self.message { try ReadableFile.check(missing, as: "FIXTURE") }
            == "FIXTURE: cannot read \(missing): No such file or directory")
    }

    @Test func aCategoriesFileThatIsNotOneSaysSo() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("categories.json")
        try Data("[]".utf8).write(to: file)
        let message = Self.message {
            try HandlerOptions<StateOption>.parse(["--categories", file.path]).makeRegistry(Self.empty, registration: { _ in })
        }
        #expect(message.hasPrefix("categories file \(file.path) is not a categories file"))
        #expect(!message.contains("\n"))
    }

    /// A categories file that lacks a category the program's extensions handle is refused, naming both.
    @Test func aCategoriesFileWithoutAnExtensionsCategoryIsRefused() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("categories.json")
        try Data(#"{"categories": [{"identifier": "blue-category", "actions": [], "options": [], "intentIdentifiers": []}]}"#.utf8)
            .write(to: file)
        let message = Self.message {
            try HandlerOptions<StateOption>.parse(["--categories", file.path]).makeRegistry(Self.empty) { try RedGreen.register(in: &$0) }
        }
        #expect(message.hasPrefix("the extension \"red-green-rotation\" handles category \"green-category\", which is not registered"), "\(message)")
    }

    /// Through the real binary: one line on stderr, naming the flag, the variable or the file, and exit status 1.
    @Test(arguments: [
        (["run", "--prefetch", "70000"], [:], "Error: --prefetch 70000: must be a whole number from 1 to 65535"),
        (["run"], ["RESPONDER_INBOX_RETENTION_HOURS": "9999999999999999"],
            "Error: RESPONDER_INBOX_RETENTION_HOURS=9999999999999999: must be a whole number from 1 to 876000"),
        (["publish", "--repeat", "0", "/dev/null"], [:], "Error: --repeat 0: must be a whole number from 1 to 1000000"),
        (["replay", "/nonexistent/session.jsonl"], [:],
            "Error: FIXTURE: cannot read /nonexistent/session.jsonl: No such file or directory"),
        (["run", "--categories", "/nonexistent/categories.json"], [:],
            "Error: --categories /nonexistent/categories.json: cannot read /nonexistent/categories.json: No such file or directory"),
    ] as [([String], [String: String], String)])
    func theBinarySaysItInOneLine(arguments: [String], environment: [String: String], line: String) async throws {
        let result = try await Tool.run(arguments, environment: environment.merging(["RESPONDER_STATE": ":memory:"]) { $1 })
        #expect(result.status == 1)
        #expect(result.stderr == line + "\n")
    }

    /// A mistyped scheme in `--state` or `RESPONDER_STATE` stops the command with one line that names the
    /// flag and never repeats the password (it is not opened as a SQLite file named by the whole URL).
    @Test(arguments: [
        (["run", "--state", "postgress://u:topsecret@h/db"], [:]),
        (["run"], ["RESPONDER_STATE": "postgress://u:topsecret@h/db"]),
        (["migrate", "--state", "postgress://u:topsecret@h/db"], [:]),
        (["replay", "--state", "postgress://u:topsecret@h/db", Paths.session("rotations").path], [:]),
    ] as [([String], [String: String])])
    func aMistypedSchemeIsAnUnknownScheme(arguments: [String], environment: [String: String]) async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await Tool.run(arguments, environment: environment, directory: folder)
        #expect(result.status == 1)
        #expect(
            result.stderr == "Error: --state: unknown scheme: a state location is a postgres:// or postgresql:// URL, "
                + ":memory: or a SQLite file path\n")
        #expect(!result.stderr.contains("topsecret"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "no file is created")
    }

    /// `--state memory` (the colons of `:memory:` forgotten) is refused instead of creating a file named `memory`;
    /// a bare name with a SQLite suffix, or any name with a directory, is still a file.
    @Test(arguments: [
        ["run", "--state", "memory"],
        ["migrate", "--state", "memory"],
        ["replay", "--state", "memory", Paths.session("rotations").path],
    ])
    func aBareNameWithoutASQLiteSuffixIsRefused(arguments: [String]) async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await Tool.run(arguments, directory: folder)
        #expect(result.status == 1)
        #expect(
            result.stderr == "Error: --state: a bare name without a SQLite suffix is taken for no file: for state that "
                + "lasts one run use :memory:; name a SQLite file with a directory (./NAME) or a suffix (.sqlite, "
                + ".sqlite3, .db, .db3)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "no file is created")
        let named = try await Tool.run(
            ["migrate", "--state", "./memory"], directory: folder)
        #expect(named.status == 0, "\(named.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("memory").path))
    }

    private static func message(_ body: () throws -> some Any) -> String {
        do {
            _ = try body()
            return "(no error)"
        } catch {
            return "\(error)"
        }
    }
}
