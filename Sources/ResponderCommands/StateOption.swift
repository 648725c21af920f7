import ArgumentParser
import ResponderPostgres

/// Where the state lives (`--state`), alone: what `migrate` takes, and part of ``HandlerOptions``.
struct StateOption: ParsableArguments {
    @Option(name: Settings.state.name, help: Settings.state.help) var state: String?

    /// What `--state`, `RESPONDER_STATE` or `RESPONDER_STATE_FILE` says.
    func stateText(_ environment: EnvironmentFallback) throws(SettingError) -> String {
        try environment.stateLocation(state)
    }

    /// The store that text names.
    func location(_ environment: EnvironmentFallback) throws -> StateLocation {
        let text = try stateText(environment)
        do {
            return try StateLocation(text)
        } catch {
            throw SettingError("--state: \(error)")
        }
    }
}
