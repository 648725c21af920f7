import Foundation

/// The environment the commands read their settings from, after their flags: a flag wins so a one-off run can
/// override a deployment's environment. ``Setting/resolve(_:_:)`` does the reading.
struct EnvironmentFallback {
    var environment: [String: String] = ProcessInfo.processInfo.environment

    /// The broker URL: `--amqp-url`, else `RESPONDER_AMQP_URL`, else the contents of the file
    /// `RESPONDER_AMQP_URL_FILE` names (a mounted secret), else a local broker.
    func brokerURL(_ flag: String?) throws(SettingError) -> String {
        try secret(Settings.amqpURL, orFileIn: Settings.amqpURLFileVariable, flag)
    }

    /// The management API's URL: `--management-url`, else `RESPONDER_MANAGEMENT_URL`, else the contents of the file
    /// `RESPONDER_MANAGEMENT_URL_FILE` names, else a local broker's.
    func managementURL(_ flag: String?) throws(SettingError) -> String {
        try secret(Settings.managementURL, orFileIn: Settings.managementURLFileVariable, flag)
    }

    /// A setting that may hold a password: the flag, else its variable, else the contents of the file that
    /// `fileVariable` names, else its default.
    private func secret(_ setting: Setting<String>, orFileIn fileVariable: String, _ flag: String?) throws(SettingError)
        -> String
    {
        if let value = try setting.resolveOptional(flag, self) { return value }
        if let value = try fileContents(fileVariable) { return value }
        return try setting.resolve(nil, self)
    }

    /// `run`'s state location: `--state`, else `RESPONDER_STATE`, else the contents of the file
    /// `RESPONDER_STATE_FILE` names (a mounted secret, so a PostgreSQL password stays off command lines and the
    /// environment), else the default file. `replay` and `migrate` never come here (``CommandLineState``).
    func stateLocation(_ flag: String?) throws(SettingError) -> String {
        try secret(Settings.state, orFileIn: Settings.stateFileVariable, flag)
    }

    /// The trimmed contents of the file the environment variable `variable` names, or nil when it is not set.
    private func fileContents(_ variable: String) throws(SettingError) -> String? {
        guard let path = environment[variable], !path.isEmpty else { return nil }
        return try ReadableFile.secret(path, for: variable)
    }
}
