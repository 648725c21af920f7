import ArgumentParser
import Logging
import ResponderPostgres

/// `migrate`: creates or upgrades the state store's schema and exits, for deploy pipelines that migrate
/// before they start workers (`responder run` migrates at start too).
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Create or upgrade the state store's schema, then exit.",
        discussion: """
            For PostgreSQL, applies the numbered migrations the schema lacks, under an advisory lock so that \
            workers starting meanwhile wait; fails if the schema is newer than this responder. For a SQLite file, \
            creates or upgrades its tables. The exit status is 0 when the schema is up to date.
            """)

    @OptionGroup(title: "State") var handlers: HandlerOptions

    func run() async throws {
        let logger = bootstrapLogging(level: .info)
        let text = try handlers.stateText(EnvironmentFallback())
        let location: StateLocation
        do {
            location = try StateLocation(text)
        } catch {
            throw SettingError("--state: \(error)")
        }
        print("migrate: \(try await location.migrate(logger: logger))")
    }
}
