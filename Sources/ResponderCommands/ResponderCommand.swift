import ArgumentParser
import Foundation

/// The root command: one subcommand per job, under the program's name.
struct ResponderCommand: AsyncParsableCommand {
    /// Every command, in the order the help lists them; a new command joins here.
    static var subcommands: [any ParsableCommand.Type] {
        [
            RunCommand.self, ReplayCommand.self, PublishCommand.self, RecordCommand.self, WatchCommand.self,
            RedriveCommand.self, TopologyCommand.self, HealthCommand.self, MigrateCommand.self, InspectCommand.self,
            ShardsCommand.self,
        ]
    }

    /// ArgumentParser's own `main()`, but an unknown option that is no near spelling of one (the parser suggests
    /// those itself) gets a line naming the command's option whose help mentions it.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let message = fullMessage(for: error)
            guard !message.contains("Did you mean"),
                let unknown = message.firstMatch(of: /^Error: Unknown option '(-[^']+)'/)?.1,
                let name = CommandLine.arguments.dropFirst().first,
                let subcommand = subcommands.first(where: { $0._commandName == name }),
                let hint = UnknownOptionHint(unknown: String(unknown), help: helpMessage(for: subcommand))
            else { exit(withError: error) }
            var lines = message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            lines.insert(hint.line, at: 1)
            FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
            exit(withError: ExitCode(exitCode(for: error).rawValue))
        }
    }

    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: Program.current.name,
            abstract: "Routes notification responses to their handlers and publishes action-set updates.",
            subcommands: subcommands)
    }
}
