import ArgumentParser
import Testing

@testable import ResponderCommands

/// One setting has one flag in every command: an environment variable is read under one flag name, and a flag name
/// reads one variable, whichever command takes it (`health --port` beside `run --metrics-port` was a trap). Read
/// from each command's help, which ``Setting/help`` writes from the one declaration in ``Settings``.
@Suite struct OneNamePerSettingTests {
    /// Each command's options that read a variable, as (command, flag, variable).
    static func optionsWithVariables() -> [(command: String, flag: String, variable: String)] {
        var options: [(command: String, flag: String, variable: String)] = []
        for command in ResponderCommand.subcommands {
            let help = ResponderCommand.helpMessage(for: command, columns: 10_000)
            for entry in RunHelpTests.optionEntries(help) {
                guard let flag = entry.split(separator: " ").first.map(String.init), flag.hasPrefix("--"),
                    let variable = entry.firstMatch(of: /\(env: (RESPONDER_[A-Z_]+)[;)]/)?.output.1
                else { continue }
                options.append((command._commandName, flag, String(variable)))
            }
        }
        return options
    }

    @Test func eachVariableIsReadUnderOneFlagAndEachFlagReadsOneVariable() {
        let options = Self.optionsWithVariables()
        #expect(Set(options.map(\.command)).isSuperset(of: ["run", "record", "watch", "health"]), "\(options)")
        let flagsOfVariable = Dictionary(grouping: options, by: \.variable)
        for (variable, uses) in flagsOfVariable {
            let flags = Set(uses.map(\.flag))
            #expect(flags.count == 1, "\(variable) is read as \(uses.map { "\($0.command) \($0.flag)" })")
        }
        let variablesOfFlag = Dictionary(grouping: options, by: \.flag)
        for (flag, uses) in variablesOfFlag {
            let variables = Set(uses.map(\.variable))
            #expect(variables.count == 1, "\(flag) reads \(uses.map { "\($0.variable) in \($0.command)" })")
        }
    }

    /// The settings `run` reads keep their flag in every other command that reads their variable.
    @Test func otherCommandsNameRunsSettingsAsRunDoes() {
        let run = Dictionary(uniqueKeysWithValues: Settings.run.compactMap { setting in
            setting.variable.map { ($0, "--" + setting.flag) }
        })
        let others = Self.optionsWithVariables().filter { $0.command != "run" && run[$0.variable] != nil }
        #expect(Set(others.map(\.command)).isSuperset(of: ["record", "watch", "health"]), "\(others)")
        for option in others {
            #expect(
                run[option.variable] == option.flag,
                "\(option.command) \(option.flag) reads \(option.variable), which run reads as \(run[option.variable] ?? "")")
        }
    }
}
