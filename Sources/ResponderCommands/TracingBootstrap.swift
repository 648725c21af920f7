import Logging
import ServiceLifecycle
import Tracing

#if OpenTelemetry
    import OTel
#endif

/// `responder run`'s traces: off unless the standard OpenTelemetry variables ask for them, then exported over
/// OTLP/HTTP by swift-otel, which reads the rest of the `OTEL_*` variables itself (protocol, headers, service name,
/// sampler, batching). A build without the OpenTelemetry trait has no exporter, and refuses the variables that ask
/// for one rather than run without the traces they ask for.
enum TracingBootstrap {
    /// The service name when `OTEL_SERVICE_NAME` does not give one.
    static let defaultServiceName = "responder"

    /// Whether `environment` asks for traces: `OTEL_TRACES_EXPORTER` other than `none`, or an OTLP endpoint
    /// (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`); never with `OTEL_SDK_DISABLED=true`.
    static func isRequested(by environment: [String: String]) -> Bool {
        if environment["OTEL_SDK_DISABLED"]?.lowercased() == "true" { return false }
        if let exporter = environment["OTEL_TRACES_EXPORTER"], !exporter.isEmpty { return exporter != "none" }
        return ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"].contains {
            !(environment[$0] ?? "").isEmpty
        }
    }

    /// The tracer and the service that exports its spans, or nil when `environment` does not ask for traces.
    static func backend(
        _ environment: [String: String], logger: Logger
    ) throws -> (tracer: any Tracer, service: any Service)? {
        guard try isExportable(environment, traits: .current) else { return nil }
        #if OpenTelemetry
            return try otelBackend(logger: logger)
        #else
            throw MissingTrait.openTelemetry
        #endif
    }

    /// Whether `environment` asks for traces (``isRequested(by:)``) that a build with `traits` can export; throws
    /// ``MissingTrait`` when it asks for them and `traits` lack OpenTelemetry.
    static func isExportable(_ environment: [String: String], traits: BuildTraits) throws(MissingTrait) -> Bool {
        guard isRequested(by: environment) else { return false }
        guard traits.openTelemetry else { throw .openTelemetry }
        return true
    }

    #if OpenTelemetry
    /// The tracer and the service of swift-otel's OTLP/HTTP exporter, configured by the `OTEL_*` variables.
    private static func otelBackend(logger: Logger) throws -> (tracer: any Tracer, service: any Service) {
        var configuration = OTel.Configuration.default
        configuration.serviceName = defaultServiceName
        configuration.diagnosticLogger = .custom(logger)
        // At info swift-otel echoes each OTEL_* value it reads, OTEL_EXPORTER_OTLP_HEADERS (an API key) included;
        // OTEL_LOG_LEVEL still lowers it.
        configuration.diagnosticLogLevel = .warning
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        logger.info("tracing on: spans go to the OTLP exporter the OTEL_* variables configure")
        return (backend.factory, backend.service)
    }
    #endif
}
