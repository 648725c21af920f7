import Glibc

/// A value only reachable while holding a pthread mutex.
///
/// Used rather than Synchronization's `Mutex`, whose futex-based Linux implementation ThreadSanitizer cannot see:
/// it reported the command queue as racy, which would hide real races from anyone checking this code with TSan.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ value: Value) {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&value)
    }
}
