import Foundation

/// The environment the commands read their settings from, after their flags: a flag wins so a one-off run can
/// override a deployment's environment. ``Setting/resolve(_:_:)`` does the reading.
struct EnvironmentFallback {
    var environment: [String: String] = ProcessInfo.processInfo.environment

    /// The broker URL: `--amqp-url`, else `RESPONDER_AMQP_URL`, else the contents of the file
    /// `RESPONDER_AMQP_URL_FILE` names (a mounted secret), else a local broker.
    func brokerURL(_ flag: String?) throws(SettingError) -> String {
        if let url = try Settings.amqpURL.resolveOptional(flag, self) { return url }
        if let url = try fileContents(Settings.amqpURLFileVariable) { return url }
        return try Settings.amqpURL.resolve(nil, self)
    }

    /// `run`'s state location: `--state`, else `RESPONDER_STATE`, else the contents of the file
    /// `RESPONDER_STATE_FILE` names (a mounted secret, so a PostgreSQL password stays off command lines and the
    /// environment), else the default file. `replay` and `migrate` never come here (``CommandLineState``).
    func stateLocation(_ flag: String?) throws(SettingError) -> String {
        if let location = try Settings.state.resolveOptional(flag, self) { return location }
        if let location = try fileContents(Settings.stateFileVariable) { return location }
        return try Settings.state.resolve(nil, self)
    }

    /// The trimmed contents of the file the environment variable `variable` names, or nil when it is not set.
    private func fileContents(_ variable: String) throws(SettingError) -> String? {
        guard let path = environment[variable], !path.isEmpty else { return nil }
        return try ReadableFile.secret(path, for: variable)
    }
}
