import ArgumentParser
import Foundation

/// One setting of the command line, declared once: its flag, its environment variable, its default, the values
/// it allows and its help line. Options take their name and help from here, commands read their values through
/// ``resolve(_:_:)``, and the configuration table (ResponderWorker.docc, Configuration) is rendered from the same
/// declarations (``SettingDescription``), so none of them can drift from the others.
///
/// Options hold the flag's text (`String?`); the setting parses it, so a flag and its variable are checked alike
/// and a bad value gets one line naming the flag or the variable.
struct Setting<Value: Sendable>: Sendable {
    /// The long flag without its dashes.
    let flag: String
    /// The environment variable read when the flag is absent, if any.
    let variable: String?
    /// The value when neither is given; `nil` when the setting is optional.
    let defaultValue: Value?
    /// The default as the help and the configuration table show it.
    let defaultDescription: String
    /// The values allowed, as the help and the configuration table show them (`1 to 65535`); `nil` when any text goes.
    let allowed: String?
    /// What the setting does: one sentence.
    let summary: String
    /// Turns a flag's or variable's text into the value, or says why it is not one.
    let parse: @Sendable (String) throws(SettingProblem) -> Value

    /// The option's name.
    var name: NameSpecification { .customLong(flag) }

    /// The option's help line: the summary, then the variable, the default and the values allowed.
    var help: ArgumentHelp {
        var notes = variable.map { ["env: \($0)"] } ?? []
        notes.append("default: \(defaultDescription)")
        if let allowed { notes.append("allowed: \(allowed)") }
        return ArgumentHelp("\(summary) (\(notes.joined(separator: "; ")))")
    }

    /// The same setting, flag and variable, with the summary another command's help needs (`health
    /// --metrics-port` reads `RESPONDER_METRICS_PORT` like `run --metrics-port`). Never under another flag: one
    /// setting has one name in every command (OneNamePerSettingTests).
    func summarized(_ summary: String) -> Setting {
        Setting(
            flag: flag, variable: variable, defaultValue: defaultValue, defaultDescription: defaultDescription,
            allowed: allowed, summary: summary, parse: parse)
    }

    /// What the configuration table says about this setting.
    var description: SettingDescription {
        SettingDescription(
            flag: flag, variable: variable, defaultDescription: defaultDescription,
            defaultIsLiteral: defaultValue != nil && !defaultDescription.contains(" "), allowed: allowed, summary: summary)
    }

    /// The flag's value, else the variable's (an empty variable counts as unset), else `nil`.
    func resolveOptional(_ flagText: String?, _ environment: EnvironmentFallback) throws(SettingError) -> Value? {
        if let flagText { return try value(of: flagText, source: "--\(flag) \(flagText)") }
        if let variable, let text = environment.environment[variable], !text.isEmpty {
            return try value(of: text, source: "\(variable)=\(text)")
        }
        return nil
    }

    /// The flag's value, else the variable's, else the default.
    func resolve(_ flagText: String?, _ environment: EnvironmentFallback) throws(SettingError) -> Value {
        if let value = try resolveOptional(flagText, environment) { return value }
        guard let defaultValue else {
            preconditionFailure("--\(flag) has no default; read it with resolveOptional")
        }
        return defaultValue
    }

    private func value(of text: String, source: String) throws(SettingError) -> Value {
        do {
            return try parse(text)
        } catch {
            throw SettingError("\(source): \(error.reason)")
        }
    }
}
