import ArgumentParser
import Foundation
import Responder
import Synchronization

/// The fault-injection switch of `responder run`, for crash-consistency tests: `RESPONDER_FAULT=<step>[:<n>]` kills
/// the process with SIGKILL the n-th time (default 1) any input reaches `<step>`, one of `after-handler` (handlers
/// ran, nothing committed), `after-commit` (committed, nothing published), `after-publish` (publications handed to
/// the connection, not confirmed) and `after-confirm` (confirmed, not acknowledged); see ``ProcessingStep``.
///
/// The variable is read once at start. Unset, nothing is installed and each step costs the pipeline one nil check.
/// SIGKILL, not a clean exit, because a crash is what the tests must survive: no graceful shutdown, no flush,
/// the broker sees the connection drop and requeues every unacknowledged input.
enum FaultInjection {
    static let variable = "RESPONDER_FAULT"

    /// The step callback `environment` asks for, or nil when the variable is unset or empty.
    static func stepCallback(_ environment: [String: String]) throws -> (@Sendable (ProcessingStep) -> Void)? {
        guard let text = environment[variable], !text.isEmpty else { return nil }
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard let step = ProcessingStep(rawValue: String(parts[0])) else {
            let steps = ProcessingStep.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("\(variable)=\(text): the step must be one of \(steps)")
        }
        let occurrence = parts.count == 2 ? Int(parts[1]) : 1
        guard let occurrence, occurrence > 0 else {
            throw ValidationError("\(variable)=\(text): the count after ':' must be a positive whole number")
        }
        let killSwitch = KillSwitch(step: step, occurrence: occurrence)
        return { reached in
            if reached == step { killSwitch.reached() }
        }
    }
}

/// Counts arrivals at the chosen step and kills the process at the chosen one.
private final class KillSwitch: Sendable {
    private let step: ProcessingStep
    private let occurrence: Int
    private let arrivals = Atomic<Int>(0)

    init(step: ProcessingStep, occurrence: Int) {
        self.step = step
        self.occurrence = occurrence
    }

    func reached() {
        guard arrivals.add(1, ordering: .relaxed).newValue == occurrence else { return }
        let note = "responder: \(FaultInjection.variable): \(step.rawValue) reached \(occurrence) times, SIGKILL\n"
        FileHandle.standardError.write(Data(note.utf8))
        kill(getpid(), SIGKILL)
    }
}
