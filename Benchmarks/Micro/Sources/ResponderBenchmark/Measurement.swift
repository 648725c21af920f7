import Foundation

/// Wall-clock and CPU time of a run, per event.
struct Measurement: CustomStringConvertible {
    var events: Int
    var wallSeconds: Double
    var cpuSeconds: Double

    /// Runs `body`, which returns how many events it handled, and measures it.
    static func of(_ body: () async throws -> Int) async throws -> Measurement {
        let startCPU = cpuTime()
        let clock = ContinuousClock()
        let start = clock.now
        let events = try await body()
        let wall = clock.now - start
        return Measurement(
            events: events,
            wallSeconds: Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18,
            cpuSeconds: cpuTime() - startCPU)
    }

    var description: String {
        let perSecond = Double(events) / wallSeconds
        let cpuMicroseconds = cpuSeconds / Double(events) * 1e6
        let wallMicroseconds = wallSeconds / Double(events) * 1e6
        return String(
            format: "%d events in %.3f s: %.0f events/s, %.2f µs/event wall, %.2f µs/event CPU",
            events, wallSeconds, perSecond, wallMicroseconds, cpuMicroseconds)
    }

    /// User plus system time of the whole process so far.
    private static func cpuTime() -> Double {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
