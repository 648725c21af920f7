import Foundation
import Testing

@testable import Responder

/// Responder's own SHA-256 gives the standard's digests (FIPS 180-4's examples, and messages around each padding
/// boundary, checked against Python's hashlib), so follow-up ids stay what swift-crypto made them.
@Suite struct SHA256Tests {
    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    @Test func theStandardsExamples() {
        #expect(hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    /// 55 bytes pad into one block, 56 into two; and so on at each block's end.
    @Test(arguments: [
        (55, "463eb28e72f82e0a96c0a4cc53690c571281131f672aa229e0d45ae59b598b59"),
        (56, "da2ae4d6b36748f2a318f23e7ab1dfdf45acdc9d049bd80e59de82a60895f562"),
        (63, "29af2686fd53374a36b0846694cc342177e428d1647515f078784d69cdb9e488"),
        (64, "fdeab9acf3710362bd2658cdc9a29e8f9c757fcf9811603a8c447cd1d9151108"),
        (65, "4bfd2c8b6f1eec7a2afeb48b934ee4b2694182027e6d0fc075074f2fabb31781"),
        (119, "da18797ed7c3a777f0847f429724a2d8cd5138e6ed2895c3fa1a6d39d18f7ec6"),
        (120, "f52b23db1fbb6ded89ef42a23ce0c8922c45f25c50b568a93bf1c075420bbb7c"),
        (128, "471fb943aa23c511f6f72f8d1652d9c880cfa392ad80503120547703e56a2be5"),
    ])
    func messagesAroundThePaddingBoundaries(count: Int, digest: String) {
        #expect(hex(SHA256.hash((0..<count).map { UInt8($0) })) == digest)
    }

    /// The ids stored follow-ups already have.
    @Test func followUpIdsAreUnchanged() {
        #expect(
            FollowUp.id(source: "/app", causedBy: "e1", number: 1)
                == "follow-up-70f8d48a2709c4791da9e146b77e5756f549efa43cae1f0ea4f6b30818faa8af")
        #expect(
            FollowUp.id(source: "responder.follow-up", causedBy: "follow-up-ab", number: 2)
                == "follow-up-771019ab377941c03989041d1cc4238a172034e0ecd9f075be9eaf334edd06ea")
    }
}
