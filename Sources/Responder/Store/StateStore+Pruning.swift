import Foundation
import Logging

extension StateStore {
    /// Prunes the inbox of entries older than ``inboxRetention`` every `interval`, until the calling task is
    /// cancelled (then it returns normally). A failed pass is logged and tried again at the next interval.
    public func runPruning(every interval: Duration = .seconds(3600), logger: Logger) async {
        while !Task.isCancelled {
            do {
                let cutoff = Date().addingTimeInterval(-inboxRetention.timeInterval)
                let pruned = try await pruneInbox(processedBefore: cutoff)
                logger.debug("pruned the inbox", metadata: ["pruned": "\(pruned)"])
            } catch {
                logger.warning("inbox pruning failed", metadata: ["error": "\(error)"])
            }
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
        }
    }
}

extension Duration {
    /// The duration in seconds, as Foundation's date arithmetic takes it.
    var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
