// The worker harness is the pipeline's harness with the worker on top: a worker suite's one import gives both.
@_exported import PipelineHarness
