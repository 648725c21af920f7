/// What the broker harness waited for in vain.
struct HarnessTimeout: Error, CustomStringConvertible {
    let description: String

    init(_ what: String, _ timeout: Duration) {
        description = "timed out after \(timeout) waiting for \(what)"
    }
}
