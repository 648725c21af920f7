import Dispatch

/// A task executor that runs every job on one serial dispatch queue, and tells whether the calling code runs there:
/// to check where the pipeline runs handlers.
final class QueueExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "queue-executor")
    private let marker = DispatchSpecificKey<Bool>()

    init() {
        queue.setSpecific(key: marker, value: true)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Whether the caller runs on this executor's queue.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: marker) ?? false }
}
