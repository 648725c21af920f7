import ArgumentParser

/// The root command: one subcommand per job, under the program's name.
struct ResponderCommand: AsyncParsableCommand {
    /// Every command, in the order the help lists them; a new command joins here.
    static var subcommands: [any ParsableCommand.Type] {
        [
            RunCommand.self, ReplayCommand.self, PublishCommand.self, RecordCommand.self, WatchCommand.self,
            RedriveCommand.self, TopologyCommand.self, HealthCommand.self, MigrateCommand.self,
        ]
    }

    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: Program.current.name,
            abstract: "Routes notification responses to their handlers and publishes action-set updates.",
            subcommands: subcommands)
    }
}
