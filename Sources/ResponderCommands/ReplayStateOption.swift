import ArgumentParser
import Responder

/// `replay`'s state: in memory unless its command line names a store (``CommandLineState``).
struct ReplayStateOption: StateSource {
    @Option(name: Settings.replayState.name, help: Settings.replayState.help) var state: String?
    @Option(name: Settings.stateFile.name, help: Settings.stateFile.help) var stateFile: String?

    func location(_ environment: EnvironmentFallback) throws(SettingError) -> StateLocation {
        guard let text = try CommandLineState.text(state: state, stateFile: stateFile, setting: Settings.replayState)
        else { return try .named(Settings.replayState.resolve(nil, environment)) }
        return try .named(text)
    }
}
