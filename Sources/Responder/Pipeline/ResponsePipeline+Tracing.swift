import Tracing

extension ResponsePipeline {
    /// Starts the span `name`, a child of `parent` (by default the span in the task's service context), when the
    /// pipeline has a tracer; nil when it has none. The caller ends it, and marks it failed without an error's
    /// description, which may quote what a store or handler saw.
    func startSpan(_ name: String, under parent: ServiceContext? = nil) -> (any Span)? {
        guard let tracer = configuration.tracer else { return nil }
        return tracer.startSpan(name, context: parent ?? ServiceContext.current ?? .topLevel)
    }
}
