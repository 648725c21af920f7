import Testing

@testable import ResponderCommands

/// RESPONDER_FAULT is read strictly: a typo must fail `responder run` at start, not leave a crash test running
/// a worker that never crashes.
@Suite struct FaultInjectionTests {
    @Test func unsetOrEmptyInstallsNothing() throws {
        #expect(try FaultInjection.stepCallback([:]) == nil)
        #expect(try FaultInjection.stepCallback(["RESPONDER_FAULT": ""]) == nil)
    }

    @Test(arguments: ["after-handler", "after-commit:3", "after-publish:1:KILL", "after-confirm:20:TERM", "after-handler:5:FAIL"])
    func aStepWithCountAndSignalIsAccepted(setting: String) throws {
        #expect(try FaultInjection.stepCallback(["RESPONDER_FAULT": setting]) != nil)
    }

    @Test(arguments: ["before-handler", "after-commit:0", "after-commit:x", "after-commit:2:HUP", "after-commit:2:TERM:1", "after-commit:2:FAIL"])
    func anythingElseIsRefused(setting: String) {
        #expect(throws: (any Error).self) { try FaultInjection.stepCallback(["RESPONDER_FAULT": setting]) }
    }

    /// FAIL fails the chosen arrival, once, with an error the pipeline treats as a retryable handler failure.
    @Test func failThrowsAtTheChosenArrivalOnly() throws {
        let callback = try #require(try FaultInjection.stepCallback(["RESPONDER_FAULT": "after-handler:2:FAIL"]))
        try callback(.afterHandler)
        try callback(.afterCommit)
        #expect(throws: InjectedFault.self) { try callback(.afterHandler) }
        try callback(.afterHandler)
    }
}
