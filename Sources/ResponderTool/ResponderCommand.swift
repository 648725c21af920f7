import ArgumentParser

/// The `responder` executable: one subcommand per job.
@main
struct ResponderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "responder",
        abstract: "Routes notification responses to their handlers and publishes action-set updates.",
        subcommands: [
            RunCommand.self, ReplayCommand.self, PublishCommand.self, RecordCommand.self, WatchCommand.self,
            RedriveCommand.self, TopologyCommand.self, HealthCommand.self, MigrateCommand.self,
        ])
}
