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

/// A publish's progress on stderr, rewritten in place, only when stderr is a terminal.
final class PublishProgress {
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let total: Int

    init(total: Int) {
        self.total = total
    }

    func show(_ sent: Int) {
        guard isTerminal, total > 0 else { return }
        let width = 30
        let filled = width * sent / total
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        FileHandle.standardError.write(Data("\rpublish: [\(bar)] \(sent)/\(total)".utf8))
    }

    func finish(_ sent: Int) {
        show(sent)
        if isTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
        standardError("publish: \(sent) messages confirmed")
    }
}
