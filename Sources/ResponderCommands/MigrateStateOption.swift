import ArgumentParser
import ResponderPostgres

/// `migrate`'s state: the store its command line names, and no default (``CommandLineState``).
struct MigrateStateOption: StateSource {
    @Option(name: Settings.migrateState.name, help: Settings.migrateState.help) var state: String?
    @Option(name: Settings.stateFile.name, help: Settings.stateFile.help) var stateFile: String?

    func location(_ environment: EnvironmentFallback) throws(SettingError) -> StateLocation {
        guard let text = try CommandLineState.text(state: state, stateFile: stateFile, setting: Settings.migrateState)
        else {
            throw SettingError(
                "migrate needs --\(Settings.migrateState.flag) or --\(Settings.stateFile.flag) to name the store; "
                    + "it never takes one from \(Settings.stateVariable) or \(Settings.stateFileVariable)")
        }
        return try .named(text)
    }
}
