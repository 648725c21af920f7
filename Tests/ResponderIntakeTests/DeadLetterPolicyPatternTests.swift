import ResponderIntake
import Testing

/// The at-least-once dead-lettering policy matches exactly the queues the worker consumes, whatever their names hold.
@Suite struct DeadLetterPolicyPatternTests {
    @Test func thePatternMatchesExactlyTheConsumedQueues() {
        var topology = Topology()
        topology.inputQueue = "work.q+1"
        #expect(topology.deadLetterPolicy.pattern == #"^(work\.q\+1)$"#)
        #expect(topology.deadLetterPolicy.name == "work.q+1.dead-letter-at-least-once")
        topology.shards = 2
        #expect(topology.deadLetterPolicy.pattern == #"^(work\.q\+1\.shard\.0|work\.q\+1\.shard\.1)$"#)
        #expect(topology.deadLetterPolicy.definition == ["dead-letter-strategy": "at-least-once", "overflow": "reject-publish"])
        #expect(topology.deadLetterPolicy.applyTo == "queues")
    }

    @Test func everyASCIICharacterButLettersDigitsAndUnderscoreIsEscaped() {
        var topology = Topology()
        topology.inputQueue = "a_Z9 ()[]{}^$|?*\\-é"
        #expect(topology.deadLetterPolicy.pattern == #"^(a_Z9\ \(\)\[\]\{\}\^\$\|\?\*\\\-é)$"#)
    }
}
