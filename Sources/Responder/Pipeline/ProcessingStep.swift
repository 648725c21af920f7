/// A point every input passes on its way from its handlers to its acknowledgement. Crash-consistency tests stop
/// the worker at each one (`RESPONDER_FAULT`, see `responder run`) to prove that a crash anywhere loses and doubles
/// nothing; ``PipelineConfiguration/stepReached`` reports them.
public enum ProcessingStep: String, Sendable, CaseIterable {
    /// The handlers ran; nothing is committed yet.
    case afterHandler = "after-handler"
    /// The notification, the inbox entry and the outputs are committed; nothing is published yet.
    case afterCommit = "after-commit"
    /// The input's publications (outputs, a retry or a dead letter) are handed to the connection; their confirms
    /// are not in yet. Only inputs that publish something pass it.
    case afterPublish = "after-publish"
    /// The broker confirmed the input's publications; the input is not acknowledged yet. Only inputs that
    /// published something pass it.
    case afterConfirm = "after-confirm"
}
