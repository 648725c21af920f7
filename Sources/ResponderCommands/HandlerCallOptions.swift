import ArgumentParser
import Responder

/// How long a handler call may take and when the handlers' dependency counts as down; shared by `run` and `replay`,
/// so a replay runs the handlers under the limits the worker does.
struct HandlerCallOptions: ParsableArguments {
    @Option(name: Settings.handlerTimeout.name, help: Settings.handlerTimeout.help) var handlerTimeout: String?
    @Option(name: Settings.dependencyFailures.name, help: Settings.dependencyFailures.help) var dependencyFailures: String?
    @Option(name: Settings.maxAbandonedCalls.name, help: Settings.maxAbandonedCalls.help) var maxAbandonedCalls: String?

    /// Sets `configuration`'s limits from these options and the environment.
    func apply(to configuration: inout PipelineConfiguration, _ environment: EnvironmentFallback) throws(SettingError) {
        configuration.handlerTimeout = .seconds(try Settings.handlerTimeout.resolve(handlerTimeout, environment))
        configuration.dependencyFailures = try Settings.dependencyFailures.resolve(dependencyFailures, environment)
        configuration.maxAbandonedCalls = try Settings.maxAbandonedCalls.resolve(maxAbandonedCalls, environment)
    }
}
