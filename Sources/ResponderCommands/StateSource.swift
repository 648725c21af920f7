import ArgumentParser
import ResponderPostgres

/// Where a command takes its state store from: `run` from its flag or the environment (``StateOption``),
/// `replay` and `migrate` from their command line alone (``ReplayStateOption``, ``MigrateStateOption``).
protocol StateSource: ParsableArguments {
    /// The store the command's options (and, for `run` only, the environment) name.
    func location(_ environment: EnvironmentFallback) throws(SettingError) -> StateLocation
}

extension StateLocation {
    /// The store `text` names, or a one-line error naming `--state`.
    static func named(_ text: String) throws(SettingError) -> StateLocation {
        do {
            return try StateLocation(text)
        } catch {
            throw SettingError("--state: \(error)")
        }
    }
}
