import ArgumentParser
import Foundation
import Logging
import RedGreenExample
import Responder
import ResponderPostgres

/// Which categories and handlers are registered and where their state lives; shared by `run` and `replay`.
struct HandlerOptions: ParsableArguments {
    static let defaultStatePath = "responder-state.sqlite"

    @Option(
        help: "A categories file (Schemas/notification-categories.v1) registered instead of the built-in RedGreen categories; the RedGreen handlers stay (other handlers need a package of your own: see README). (env: RESPONDER_CATEGORIES; default: RedGreen's)",
        completion: .file(extensions: ["json"]))
    var categories: String?

    @Option(
        help: "The SQLite state file, created if missing and shareable by several processes; or postgres://USER:PASSWORD@HOST:PORT/DATABASE (parameters sslmode, sslrootcert, pool_size, connect_timeout, schema) for a fleet; or :memory: for state that lasts one run. (env: RESPONDER_STATE, or RESPONDER_STATE_FILE naming a file that holds it; default: \(defaultStatePath) in the working directory)")
    var state: String?

    @Option(help: "Hours a processed event id is remembered for deduplication. (env: RESPONDER_INBOX_RETENTION_HOURS; default: 168)")
    var inboxRetentionHours: Int?

    @Option(help: "Days a notification nothing changes is kept; a response after that starts it afresh from its category's actions, at version 1. (env: RESPONDER_NOTIFICATION_RETENTION_DAYS; default: 30)")
    var notificationRetentionDays: Int?

    /// The RedGreen handlers, with the categories of `--categories` when given.
    func makeRegistry(_ environment: EnvironmentFallback) throws -> HandlerRegistry {
        var registry = RedGreen.makeRegistry()
        let path = environment.resolve(categories, "RESPONDER_CATEGORIES")
        if let path {
            registry.setNotificationCategories(try CategoryRegistry(contentsOf: URL(fileURLWithPath: path)))
        }
        return registry
    }

    /// The state store `--state` names, its PostgreSQL schema migrated; the result's service must run while it is
    /// used.
    func openStore(_ environment: EnvironmentFallback, logger: Logger) async throws -> OpenedState {
        let location = try StateLocation(try stateText(environment))
        let hours = try environment.resolve(inboxRetentionHours, "RESPONDER_INBOX_RETENTION_HOURS", default: 168)
        let days = try environment.resolve(notificationRetentionDays, "RESPONDER_NOTIFICATION_RETENTION_DAYS", default: 30)
        guard hours > 0, days > 0 else {
            throw ValidationError("retention periods must be positive: \(hours) hours, \(days) days")
        }
        return try await location.open(
            inboxRetention: .seconds(hours * 3600), notificationRetention: .seconds(days * 86_400), logger: logger)
    }

    /// What `--state`, `RESPONDER_STATE` or `RESPONDER_STATE_FILE` says.
    func stateText(_ environment: EnvironmentFallback) throws -> String {
        try environment.stateLocation(state, default: Self.defaultStatePath)
    }
}
