import Foundation
import Testing

@testable import AMQP

@Suite("One I/O thread as a task executor")
struct IOThreadTests {
    @Test("a task that prefers the thread, and its child tasks, run their jobs on it")
    func jobsRunOnTheThread() async {
        let thread = IOThread(name: "io-thread-test")
        defer { thread.endWhenIdle() }
        let (task, children) = await withTaskExecutorPreference(thread) {
            let task = thread.isCurrent
            let children = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<4 { group.addTask { thread.isCurrent } }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            return (task, children)
        }
        #expect(task)
        #expect(children == 4)
        #expect(!thread.isCurrent)
    }

    @Test("the thread has its name where ps and perf read it")
    func namedForTheKernel() async {
        let thread = IOThread(name: "io-thread-test")
        defer { thread.endWhenIdle() }
        #expect(await withTaskExecutorPreference(thread) { Self.currentThreadName() } == "io-thread-test")
    }

    /// The calling thread's name as the kernel has it.
    static func currentThreadName() -> String? {
        (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines)
    }

    @Test("work handed over on the thread itself writes no eventfd")
    func enqueueFromTheThreadDoesNotWake() async {
        let thread = IOThread(name: "io-thread-test")
        defer { thread.endWhenIdle() }
        let wakeUps = await withTaskExecutorPreference(thread) {
            let before = thread.wakeUpCount
            // Each yield, and each child task's start and result, queues a job from the thread to the thread.
            for _ in 0..<100 { await Task.yield() }
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<100 { group.addTask {} }
            }
            return thread.wakeUpCount - before
        }
        #expect(wakeUps == 0)
    }

    @Test("a thread told to end when idle ends, and a job queued after that still runs")
    func endsWhenIdle() async throws {
        let thread = IOThread(name: "io-thread-test")
        #expect(await withTaskExecutorPreference(thread) { thread.isCurrent })
        thread.endWhenIdle()
        try await Self.waitUntilEnded(thread)
        #expect(await withTaskExecutorPreference(thread) { !thread.isCurrent })
    }

    @Test("a connection handed to a thread that ended fails at once, before any network I/O")
    func openingOnAnEndedThreadFails() async throws {
        let thread = IOThread(name: "io-thread-test")
        thread.endWhenIdle()
        try await Self.waitUntilEnded(thread)
        // Nothing listens there: before the check, the open failed on the socket instead (or, with a broker,
        // succeeded and then hung every call, since no thread served the connection).
        let configuration = try AMQPConfiguration(url: "amqp://guest:guest@127.0.0.1:1/")
        await #expect(throws: AMQPError.closed) { try await AMQPConnection.connect(configuration, on: thread) }
    }

    static func waitUntilEnded(_ thread: IOThread) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while !thread.hasEnded {
            try #require(ContinuousClock.now < deadline, "the thread did not end")
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
