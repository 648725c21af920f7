import Tracing

extension ResponsePipeline {
    /// Runs `operation` as the span `name`, a child of the span in the task's service context, when the pipeline has
    /// a tracer; as it is, without a span, when it has none.
    ///
    /// A thrown error marks the span failed without its description, which may quote what a store or handler saw.
    func traced<T>(_ name: String, _ operation: () async throws -> T) async rethrows -> T {
        guard let tracer = configuration.tracer else { return try await operation() }
        let span = tracer.startSpan(name, context: ServiceContext.current ?? .topLevel)
        var succeeded = false
        defer {
            if !succeeded { span.setStatus(SpanStatus(code: .error)) }
            span.end()
        }
        let value = try await ServiceContext.withValue(span.context) { try await operation() }
        succeeded = true
        return value
    }
}
