import Logging
import Responder
import ResponderPostgres
import Testing

@testable import ResponderCommands

/// What `--state` names, and what a worker built without a trait says when a setting needs it: the trait's name
/// and where to add it, whatever the setting (the PostgreSQL store, trace export).
@Suite struct StateLocationTests {
    @Test func theStateLocationTellsTheStoresApart() throws {
        #expect(try StateLocation(":memory:") == .memory)
        #expect(try StateLocation("state.sqlite") == .sqlite(path: "state.sqlite"))
        #expect(try StateLocation("POSTGRESQL://u@h/d") == .postgres(try PostgresURL("postgresql://u@h/d")))
        // A broken PostgreSQL URL is an error, never a file name.
        #expect(throws: PostgresURLError.self) { try StateLocation("postgres:u@h") }
        // A path that only holds `://` further on is still a path.
        #expect(try StateLocation("./data://state.sqlite") == .sqlite(path: "./data://state.sqlite"))
        #expect(try StateLocation("/var/lib/a://b") == .sqlite(path: "/var/lib/a://b"))
    }

    /// A mistyped or foreign scheme is refused as unknown, never opened as a SQLite file whose errors would
    /// repeat the text, password included.
    @Test(arguments: [
        "postgress://u:topsecret@h/db", "postgre://u:topsecret@h/db", "pg://u:topsecret@h/db",
        "mysql://u:topsecret@h/db", "sqlite+pg.x-y://u:topsecret@h/db", "POSTGRESS://u:topsecret@h/db",
    ])
    func anUnknownSchemeIsRefusedWithoutThePassword(text: String) throws {
        let error = try #require(throws: StateLocationError.self) { try StateLocation(text) }
        #expect(error == .unknownScheme)
        #expect("\(error)".hasPrefix("unknown scheme"), "\(error)")
        #expect(!"\(error)".contains("topsecret"), "\(error)")
    }

    /// A worker built without the PostgreSQL trait (a team's SQLite worker, `traits: []`) refuses a postgres:// URL
    /// with the trait's name and the fix, never opening it as a file; its other locations are unchanged.
    @Test(arguments: ["postgres://u:topsecret@h/db", "POSTGRESQL://u@h/d", "postgres:u@h"])
    func aPostgresURLWithoutThePostgreSQLTraitNamesTheTrait(text: String) throws {
        let sqliteOnly = BuildTraits(postgreSQL: false, openTelemetry: false)
        let error = try #require(throws: MissingTrait.self) { try StateLocation.resolving(text, traits: sqliteOnly) }
        #expect(error == .postgreSQL)
        #expect("\(error)".contains("built without it: add traits: [\"PostgreSQL\"] to its responder package dependency"))
        #expect(!"\(error)".contains("topsecret"))
        #expect(try StateLocation.resolving(":memory:", traits: sqliteOnly) == .memory)
        #expect(try StateLocation.resolving("state.sqlite", traits: sqliteOnly) == .sqlite(path: "state.sqlite"))
        #expect(throws: StateLocationError.unknownScheme) { try StateLocation.resolving("pg://h/d", traits: sqliteOnly) }
    }

    /// `--state` wraps it in the one-line setting error that names the flag.
    @Test func theStateFlagsErrorNamesTheFlagAndTheTrait() throws {
        let sqliteOnly = BuildTraits(postgreSQL: false, openTelemetry: false)
        let error = try #require(throws: SettingError.self) { try StateLocation.named("postgres://x", traits: sqliteOnly) }
        #expect("\(error)".hasPrefix("--state: a postgres:// state store needs the PostgreSQL trait"), "\(error)")
    }

    /// This build (default traits) has both.
    @Test func theDefaultBuildHasEveryTrait() {
        #expect(BuildTraits.current == BuildTraits(postgreSQL: true, openTelemetry: true))
    }

    /// OTEL_* variables that ask for traces, in a build without the OpenTelemetry trait: an error naming the trait,
    /// not a worker that quietly exports nothing. Variables that ask for nothing are still fine.
    @Test func traceExportWithoutTheOpenTelemetryTraitNamesTheTrait() throws {
        let sqliteOnly = BuildTraits(postgreSQL: false, openTelemetry: false)
        let asking = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"]
        let error = try #require(throws: MissingTrait.self) { try TracingBootstrap.isExportable(asking, traits: sqliteOnly) }
        #expect(error == .openTelemetry)
        #expect("\(error)".contains("add traits: [\"OpenTelemetry\"]"), "\(error)")
        #expect(try !TracingBootstrap.isExportable(["OTEL_SDK_DISABLED": "true"], traits: sqliteOnly))
        #expect(try TracingBootstrap.isExportable(asking, traits: .current))
    }
}
