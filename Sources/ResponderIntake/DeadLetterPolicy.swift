/// The broker policy under which the queues the broker dead-letters from (the input queue, or ordered mode's shard
/// queues: by delivery limit, or an oversized body the worker rejected) dead-letter at least once: a dead letter
/// whose route is missing stays in its queue until the route is back instead of being dropped.
///
/// A policy rather than queue arguments, so queues declared before it get it too (a queue's arguments cannot
/// change once it exists). RabbitMQ dead-letters at least once only from a quorum queue that refuses publishes when
/// full rather than dropping its oldest message, hence `overflow: reject-publish` beside the strategy.
///
/// RabbitMQ applies one policy to a queue, the matching one of the highest priority: a policy of an operator's that
/// matches these queues with a higher priority replaces this one, and one with a lower priority stops applying.
public struct DeadLetterPolicy: Sendable, Hashable, Codable {
    /// The policy's name: one per topology, so several topologies on one virtual host do not replace each other's.
    public var name: String
    /// A regular expression matching exactly the queues, by their names.
    public var pattern: String
    /// What it sets on them.
    public var definition: [String: String]
    /// Its priority among the policies matching the same queues.
    public var priority: Int
    /// The kind of object it applies to.
    public var applyTo: String

    /// The priority responder's policy has: above RabbitMQ's default of 0, so an operator's catch-all policy left at
    /// the default does not take these queues from it.
    public static let defaultPriority = 10

    /// The policy for `queues`, named after `owner` (the configured input queue).
    init(owner: String, queues: [String]) {
        name = "\(owner).dead-letter-at-least-once"
        pattern = "^(" + queues.map(Self.literal).joined(separator: "|") + ")$"
        definition = ["dead-letter-strategy": "at-least-once", "overflow": "reject-publish"]
        priority = Self.defaultPriority
        applyTo = "queues"
    }

    /// `text` as a regular expression matching only itself: every ASCII character other than a letter, digit or
    /// underscore is escaped (a backslash before such a character always means the character itself); other bytes
    /// match themselves.
    static func literal(_ text: String) -> String {
        var escaped = ""
        for character in text.unicodeScalars {
            let isWordCharacter =
                (0x30...0x39).contains(character.value) || (0x41...0x5A).contains(character.value)
                || (0x61...0x7A).contains(character.value) || character == "_"
            if character.isASCII, !isWordCharacter { escaped.append("\\") }
            escaped.unicodeScalars.append(character)
        }
        return escaped
    }
}

extension Topology {
    /// The at-least-once dead-lettering policy for the queues the worker consumes (``consumedQueues``).
    public var deadLetterPolicy: DeadLetterPolicy {
        DeadLetterPolicy(owner: inputQueue, queues: consumedQueues)
    }
}
