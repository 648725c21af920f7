import Foundation
import NotificationEvents

extension InboundMessage {
    /// The two content types as producers usually spell them, accepted without parsing.
    static let acceptedContentTypes: Set<String> = ["application/cloudevents+json", "application/json"]

    /// The content encodings that mean "the bytes are the JSON text itself".
    static let acceptedContentEncodings: Set<String> = ["", "identity", "utf-8", "utf8"]

    /// Checks what can be checked before decoding: content type, content encoding and size.
    func admissionCheck(maxBodySize: Int) throws(InputRejection) {
        // The exact spellings come first, since normalising costs more than the rest of the check; otherwise the
        // contract's rule (EventContentType, charset included), with a blank content type read like a missing one.
        if let contentType = properties.contentType, !Self.acceptedContentTypes.contains(contentType),
            !contentType.trimmingCharacters(in: .whitespaces).isEmpty, !EventContentType.isAccepted(contentType)
        {
            throw InputRejection(
                reason: .unsupportedContentType,
                detail: "content type \"\(contentType)\" is not application/cloudevents+json or application/json in UTF-8")
        }
        if let encoding = properties.contentEncoding, !Self.acceptedContentEncodings.contains(encoding),
            !Self.acceptedContentEncodings.contains(encoding.lowercased())
        {
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
