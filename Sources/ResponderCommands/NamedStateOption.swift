import ArgumentParser
import ResponderPostgres

/// The state of `migrate` and `inspect`: the store their command line names, and no default (``CommandLineState``),
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
