import ArgumentParser
import Foundation
import Logging
import Responder

/// Which categories and handlers are registered and where their state lives; shared by `run` and `replay`, which
/// take their store from different places (`State`).
struct HandlerOptions<State: StateSource>: ParsableArguments {
    @Option(
        name: Settings.categories.name, help: Settings.categories.help, completion: .file(extensions: ["json"]))
    var categories: String?

    @OptionGroup var store: State

    @Option(name: Settings.inboxRetentionHours.name, help: Settings.inboxRetentionHours.help)
    var inboxRetentionHours: String?

    @Option(name: Settings.notificationRetentionDays.name, help: Settings.notificationRetentionDays.help)
    var notificationRetentionDays: String?

    @Option(name: Settings.maxStateSize.name, help: Settings.maxStateSize.help) var maxStateSize: String?

    /// The program's handlers, with the categories of `--categories` when given.
    func makeRegistry(_ environment: EnvironmentFallback, registration: Registration) throws -> HandlerRegistry {
        var registry = HandlerRegistry()
        try registration(&registry)
        if let path = try Settings.categories.resolveOptional(categories, environment) {
            do {
                registry.setNotificationCategories(try CategoryRegistry(contentsOf: URL(fileURLWithPath: path)))
                try registry.checkExtensionCategories()
            } catch {
                throw SettingError("\(error)")
            }
        }
        return registry
    }

    /// The state store `State` names, its PostgreSQL schema checked to be up to date; the result's service must run
    /// while it is used.
    func openStore(_ environment: EnvironmentFallback, logger: Logger) async throws -> OpenedState {
        let location = try store.location(environment)
        let inbox = Duration.seconds(try Settings.inboxRetentionHours.resolve(inboxRetentionHours, environment) * 3600)
        let notifications = Duration.seconds(
            try Settings.notificationRetentionDays.resolve(notificationRetentionDays, environment) * 86_400)
        let maximumSize = try Settings.maxStateSize.resolve(maxStateSize, environment)
        do {
            return try await location.open(
                inboxRetention: inbox, notificationRetention: notifications,
                maximumSQLiteSize: maximumSize == 0 ? nil : maximumSize, logger: logger)
        } catch {
            throw SettingError("cannot open the state store \(location): \(error)")
        }
    }
}
