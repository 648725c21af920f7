import Logging
import Testing

@testable import ResponderCommands

/// Tracing is off unless the standard OpenTelemetry variables ask for it, and `OTEL_SDK_DISABLED` wins.
@Suite struct TracingBootstrapTests {
    @Test(arguments: [
        ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"],
        ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://collector:4318/v1/traces"],
        ["OTEL_TRACES_EXPORTER": "otlp"],
        ["OTEL_TRACES_EXPORTER": "console", "OTEL_SDK_DISABLED": "false"],
    ])
    func theseVariablesTurnTracingOn(environment: [String: String]) {
        #expect(TracingBootstrap.isRequested(by: environment))
    }

    @Test(arguments: [
        [:], ["OTEL_SERVICE_NAME": "responder-eu"], ["OTEL_EXPORTER_OTLP_ENDPOINT": ""],
        ["OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"],
        ["OTEL_SDK_DISABLED": "TRUE", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"],
    ])
    func otherwiseTracingStaysOff(environment: [String: String]) throws {
        #expect(!TracingBootstrap.isRequested(by: environment))
        #expect(try TracingBootstrap.backend(environment, logger: Logger(label: "test")) == nil)
    }
}
