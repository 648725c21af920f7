import ArgumentParser
import Logging

/// `migrate`: creates or upgrades the state store's schema and exits, for deploy pipelines that migrate
/// before they start workers (`run` and `replay` only check that a PostgreSQL schema is up to date).
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Create or upgrade the state store's schema, then exit.",
        discussion: """
            For PostgreSQL, applies the numbered migrations the schema lacks, under an advisory lock so that \
            workers starting meanwhile wait; fails if the schema is newer than this responder. For a SQLite file, \
            creates or upgrades its tables. The store is the one --state or --state-file names, never \
            RESPONDER_STATE or RESPONDER_STATE_FILE. The exit status is 0 when the schema is up to date.
            """)

    @OptionGroup(title: "State") var store: NamedStateOption

    func run() async throws {
        let logger = bootstrapLogging(level: .info)
        let location = try store.location(EnvironmentFallback())
        print("migrate: \(try await location.migrate(logger: logger))")
    }
}
