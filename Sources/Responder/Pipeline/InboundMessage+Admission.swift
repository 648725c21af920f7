import NotificationEvents

extension InboundMessage {
    /// Checks what can be checked before decoding: content type and content encoding, by the contract's rules, and
    /// size.
    func admissionCheck(maxBodySize: Int) throws(InputRejection) {
        if let contentType = properties.contentType, !EventContentType.isAccepted(contentType) {
            throw InputRejection(
                reason: .unsupportedContentType,
                detail: "content type \"\(contentType)\" is not application/cloudevents+json or application/json in UTF-8")
        }
        if let encoding = properties.contentEncoding, !EventContentEncoding.isAccepted(encoding) {
            throw InputRejection(
                reason: .unsupportedContentType,
                detail: "content encoding \"\(encoding)\" is not supported: send the JSON uncompressed")
        }
        guard body.count <= maxBodySize else {
            throw InputRejection(
                reason: .bodyTooLarge, detail: "the body has \(body.count) bytes, over the limit of \(maxBodySize)")
        }
    }
}
