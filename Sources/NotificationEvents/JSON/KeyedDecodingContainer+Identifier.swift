extension KeyedDecodingContainer {
    /// A required identifier by the contract's rules (not empty, no U+0000), for a type outside the contract that
    /// carries one of its identifiers, such as the worker's own follow-up messages: a value those rules refuse would
    /// be refused again by a store or the broker, for more than the one message.
    public func decodeContractIdentifier(_ key: Key) throws -> String {
        try decodeIdentifier(key)
    }
}
