import Foundation
import Logging

extension StateStore {
    /// Prunes the inbox of entries older than ``inboxRetention``, and the notifications nothing changed for
    /// ``notificationRetention``, every `interval`, until the calling task is cancelled (then it returns normally).
    /// A failed pass is logged and tried again at the next interval.
    public func runPruning(every interval: Duration = .seconds(3600), logger: Logger) async {
        while !Task.isCancelled {
            do {
                let now = Date()
                let entries = try await pruneInbox(processedBefore: now.addingTimeInterval(-inboxRetention.timeInterval))
                let notifications = try await pruneNotifications(
                    changedBefore: now.addingTimeInterval(-notificationRetention.timeInterval))
                logger.debug(
                    "pruned the state store",
                    metadata: ["inbox-entries": "\(entries)", "notifications": "\(notifications)"])
            } catch {
                logger.warning("state store pruning failed", metadata: ["error": "\(error)"])
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
    package var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
