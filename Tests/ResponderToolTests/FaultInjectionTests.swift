import Testing

@testable import ResponderCommands

/// RESPONDER_FAULT is read strictly: a typo must fail `responder run` at start, not leave a crash test running
/// a worker that never crashes.
@Suite struct FaultInjectionTests {
    @Test func unsetOrEmptyInstallsNothing() throws {
        #expect(try FaultInjection.stepCallback([:]) == nil)
        #expect(try FaultInjection.stepCallback(["RESPONDER_FAULT": ""]) == nil)
    }

    @Test(arguments: ["after-handler", "after-commit:3", "after-publish:1:KILL", "after-confirm:20:TERM"])
    func aStepWithCountAndSignalIsAccepted(setting: String) throws {
        #expect(try FaultInjection.stepCallback(["RESPONDER_FAULT": setting]) != nil)
    }

    @Test(arguments: ["before-handler", "after-commit:0", "after-commit:x", "after-commit:2:HUP", "after-commit:2:TERM:1"])
    func anythingElseIsRefused(setting: String) {
        #expect(throws: (any Error).self) { try FaultInjection.stepCallback(["RESPONDER_FAULT": setting]) }
    }
}
