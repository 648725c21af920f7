import Foundation

/// The environment the commands read their settings from, after their flags: a flag wins so a one-off run can
/// override a deployment's environment. ``Setting/resolve(_:_:)`` does the reading.
struct EnvironmentFallback {
    var environment: [String: String] = ProcessInfo.processInfo.environment

    /// The broker URL: `--amqp-url`, else `RESPONDER_AMQP_URL`, else the contents of the file
    /// `RESPONDER_AMQP_URL_FILE` names (a mounted secret), else a local broker.
    func brokerURL(_ flag: String?) throws(SettingError) -> String {
        if let url = try Settings.amqpURL.resolveOptional(flag, self) { return url }
        let variable = Settings.amqpURLFileVariable
        if let path = environment[variable], !path.isEmpty {
            return try ReadableFile.text(path, for: variable).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return try Settings.amqpURL.resolve(nil, self)
    }
}
