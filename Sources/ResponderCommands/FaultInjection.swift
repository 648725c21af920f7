import ArgumentParser
import Foundation
import Responder
import Synchronization

/// The fault-injection switch of `responder run`, for crash-consistency and shutdown tests:
/// `RESPONDER_FAULT=<step>[:<n>[:<signal>]]` sends the process `<signal>` (`KILL`, the default, or `TERM`) the n-th
/// time (default 1) any input reaches `<step>`, one of `after-handler` (handlers ran, nothing committed),
/// `after-commit` (committed, nothing published), `after-publish` (publications handed to the connection, not
/// confirmed) and `after-confirm` (confirmed, not acknowledged); see ``ProcessingStep``. The signal `FAIL`, only at
/// `after-handler`, sends none: that input fails as a retryable handler failure, once, and is retried (in place in
/// ordered mode).
///
/// The variable is read once at start. Unset, nothing is installed and each step costs the pipeline one nil check.
/// SIGKILL is a crash, what the crash tests must survive: no graceful shutdown, no flush, the broker sees the
/// connection drop and requeues every unacknowledged input. SIGTERM is an operator's stop arriving at a known
/// point of a stream, so a shutdown test knows the worker held inputs when it came, however fast the worker runs.
enum FaultInjection {
    static let variable = "RESPONDER_FAULT"

    /// The step callback `environment` asks for, or nil when the variable is unset or empty.
    static func stepCallback(_ environment: [String: String]) throws -> (@Sendable (ProcessingStep) throws -> Void)? {
        guard let text = environment[variable], !text.isEmpty else { return nil }
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard let step = ProcessingStep(rawValue: String(parts[0])) else {
            let steps = ProcessingStep.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("\(variable)=\(text): the step must be one of \(steps)")
        }
        let occurrence = parts.count >= 2 ? Int(parts[1]) : 1
        guard let occurrence, occurrence > 0 else {
            throw ValidationError("\(variable)=\(text): the count after the step must be a positive whole number")
        }
        let signal = parts.count == 3 ? FaultSignal(rawValue: String(parts[2])) : .kill
        guard let signal else {
            throw ValidationError("\(variable)=\(text): the signal after the count must be KILL, TERM or FAIL")
        }
        if signal == .fail, step != .afterHandler {
            throw ValidationError("\(variable)=\(text): FAIL is only for the after-handler step")
        }
        let faultSwitch = FaultSwitch(step: step, occurrence: occurrence, signal: signal)
        return { reached in
            if reached == step { try faultSwitch.reached() }
        }
    }
}

/// The signals ``FaultInjection`` can send.
enum FaultSignal: String {
    case kill = "KILL"
    case term = "TERM"
    case fail = "FAIL"

    var number: Int32? {
        switch self {
        case .kill: SIGKILL
        case .term: SIGTERM
        case .fail: nil
        }
    }
}

/// The handler failure ``FaultInjection`` injects with `FAIL`: retryable, like any error that is not a
/// ``HandlerFailure``.
struct InjectedFault: Error, CustomStringConvertible {
    var description: String { "\(FaultInjection.variable): an injected retryable handler failure" }
}

/// Counts arrivals at the chosen step and signals the process at the chosen one.
private final class FaultSwitch: Sendable {
    private let step: ProcessingStep
    private let occurrence: Int
    private let signal: FaultSignal
    private let arrivals = Atomic<Int>(0)

    init(step: ProcessingStep, occurrence: Int, signal: FaultSignal) {
        self.step = step
        self.occurrence = occurrence
        self.signal = signal
    }

    func reached() throws {
        guard arrivals.add(1, ordering: .relaxed).newValue == occurrence else { return }
        let note = "responder: \(FaultInjection.variable): \(step.rawValue) reached \(occurrence) times, \(signal == .fail ? "" : "SIG")\(signal.rawValue)\n"
        FileHandle.standardError.write(Data(note.utf8))
        guard let number = signal.number else { throw InjectedFault() }
        kill(getpid(), number)
    }
}
