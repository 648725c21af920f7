extension String {
    /// The longest prefix of whole Unicode scalars whose UTF-8 takes at most `limit` bytes: how text is cut to a
    /// byte bound (an AMQP short string, a bounded error detail) without splitting a character's encoding.
    public func prefix(utf8Bytes limit: Int) -> Substring {
        guard utf8.count > limit else { return self[...] }
        var kept = 0
        var end = startIndex
        for index in unicodeScalars.indices {
            let size = unicodeScalars[index].utf8.count
            if kept + size > limit { break }
            kept += size
            end = unicodeScalars.index(after: index)
        }
        return Substring(unicodeScalars[..<end])
    }
}
