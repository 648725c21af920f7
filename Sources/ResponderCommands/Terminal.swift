import Foundation
import Responder

/// Writes one line to stderr, where diagnostics go so stdout can carry outputs.
func standardError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Progress of a long run on stderr: a line rewritten in place on a terminal, an occasional line otherwise
/// (which only long fixtures reach).
final class ProgressLine {
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private var shown = false

    func show(_ summary: ReplaySummary) {
        let events = summary.events
        if isTerminal, events % 1000 == 0 {
            FileHandle.standardError.write(Data("\rreplay: \(events) events…".utf8))
            shown = true
        } else if !isTerminal, events % 10_000 == 0 {
            standardError("replay: \(events) events…")
        }
    }

    /// Clears the rewritten line before other output.
    func clear() {
        guard shown else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        shown = false
    }
}
