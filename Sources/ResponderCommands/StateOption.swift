import ArgumentParser
import Responder

/// `run`'s state (`--state`): the flag, else what a deployment's environment names.
struct StateOption: StateSource {
    @Option(name: Settings.state.name, help: Settings.state.help) var state: String?

    /// What `--state`, `RESPONDER_STATE` or `RESPONDER_STATE_FILE` says.
    func stateText(_ environment: EnvironmentFallback) throws(SettingError) -> String {
        try environment.stateLocation(state)
    }

    func location(_ environment: EnvironmentFallback) throws(SettingError) -> StateLocation {
        try .named(stateText(environment))
    }
}
