import Dispatch
import Foundation
import Logging

// A synchronous main that waits for the benchmark on a semaphore: valgrind (3.19) crashes in the async main's
// dispatch_main, and callgrind instruction counts are the repeatable measure on a shared machine.
LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = .error
    return handler
}
let finished = DispatchSemaphore(value: 0)
nonisolated(unsafe) var status: Int32 = 0
Task.detached {
    do {
        try await Benchmark(arguments: Array(CommandLine.arguments.dropFirst())).run()
    } catch {
        FileHandle.standardError.write(Data("responder-bench: \(error)\n".utf8))
        status = 1
    }
    finished.signal()
}
finished.wait()
exit(status)
