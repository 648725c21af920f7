import ArgumentParser
import Foundation
import Logging
import Responder

/// The state of `migrate`, `inspect` and `shards`: the store their command line names, and no default (``CommandLineState``),
/// so neither reaches a worker's store through the environment by accident.
struct NamedStateOption: StateSource {
    @Option(name: Settings.namedState.name, help: Settings.namedState.help) var state: String?
    @Option(name: Settings.stateFile.name, help: Settings.stateFile.help) var stateFile: String?

    func location(_ environment: EnvironmentFallback) throws(SettingError) -> StateLocation {
        guard let text = try CommandLineState.text(state: state, stateFile: stateFile, setting: Settings.namedState)
        else {
            throw SettingError(
                "--\(Settings.namedState.flag) or --\(Settings.stateFile.flag) must name the store; this command "
                    + "never takes one from \(Settings.stateVariable) or \(Settings.stateFileVariable)")
        }
        return try .named(text)
    }
}

extension NamedStateOption {
    /// `body`'s result on the store this names, opened for reading (a SQLite file must exist: reading never creates
    /// one) and closed afterwards, its service (PostgreSQL's pool) running meanwhile.
    func reading<Result>(logger: Logger, _ body: (any StateStore) async throws -> Result) async throws -> Result {
        let location = try location(EnvironmentFallback())
        if case .sqlite(let path) = location, !FileManager.default.fileExists(atPath: path) {
            throw SettingError("--state: \(path) does not exist")
        }
        let opened = try await location.open(
            inboxRetention: StateRetention.inbox, notificationRetention: StateRetention.notifications, logger: logger)
        let service = Task { try await opened.service?.run() }
        defer {
            service.cancel()
            try? opened.close()
        }
        return try await body(opened.store)
    }
}
