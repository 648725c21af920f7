/// The state of `replay` and `migrate`: only what their command line says. Every container of a deployment sets
/// `RESPONDER_STATE` or `RESPONDER_STATE_FILE` for `run`; an operator who replays a fixture or migrates in that
/// shell must not write into the production store by accident, so these commands never read either variable.
/// `--state-file` names a file that holds the location, so a PostgreSQL password can stay out of `ps`.
enum CommandLineState {
    /// What `--state` says or the file `--state-file` holds; `nil` when neither is given.
    static func text(state: String?, stateFile: String?, setting: Setting<String>) throws(SettingError) -> String? {
        // No environment: these settings have no variable, and nothing here may read one.
        let commandLineOnly = EnvironmentFallback(environment: [:])
        let flag = try setting.resolveOptional(state, commandLineOnly)
        let file = try Settings.stateFile.resolveOptional(stateFile, commandLineOnly)
        switch (flag, file) {
        case (let flag?, nil): return flag
        case (nil, let file?): return try ReadableFile.secret(file, for: "--\(Settings.stateFile.flag)")
        case (nil, nil): return nil
        case (_?, _?): throw SettingError("give --\(setting.flag) or --\(Settings.stateFile.flag), not both")
        }
    }
}
