import CMalloc

/// How the worker's process keeps the memory it frees, set once before `responder run` starts its work.
///
/// glibc gives the top of a thread's heap back to the kernel (`madvise`) as soon as more than 128 KiB of it is free,
/// and serves every allocation of 128 KiB or more with its own `mmap`. The worker frees and takes back the same
/// memory on every batch (SQLite's page cache, the batch's buffers) on several threads, so it paid for that in
/// page faults and TLB shootdowns: a quarter of `responder run`'s CPU with SQLite in a perf profile (issue 24). With
/// the thresholds below (up to 64 MiB kept free per heap, only allocations of 4 MiB or more mapped on their own) the
/// SQLite rows of `scripts/bench` took 56 to 71 µs of client CPU per event, against 62 to 116 without, in runs of
/// one machine. Setting them also turns off glibc's own adjustment of the mmap threshold.
enum WorkerHeap {
    static let trimThreshold: Int32 = 64 << 20
    static let mmapThreshold: Int32 = 4 << 20

    /// Applies the thresholds; returns whether glibc took both.
    @discardableResult
    static func keepFreedMemory() -> Bool {
        mallopt(M_TRIM_THRESHOLD, trimThreshold) == 1 && mallopt(M_MMAP_THRESHOLD, mmapThreshold) == 1
    }
}
