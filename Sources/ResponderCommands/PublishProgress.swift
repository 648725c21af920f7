import Foundation

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
