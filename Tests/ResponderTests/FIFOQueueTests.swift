import Testing

@testable import Responder

@Suite struct FIFOQueueTests {
    @Test func elementsLeaveInTheOrderTheyCameAcrossCompactions() {
        var queue = FIFOQueue<Int>()
        var expected = 0
        var next = 0
        // Never empty for long: the consumed head is compacted away while elements keep coming.
        for round in 0..<2_000 {
            for _ in 0..<(round % 3 + 1) {
                queue.append(next)
                next += 1
            }
            for _ in 0..<(round % 2 + 1) {
                guard let element = queue.popFirst() else { break }
                #expect(element == expected)
                expected += 1
            }
        }
        while let element = queue.popFirst() {
            #expect(element == expected)
            expected += 1
        }
        #expect(expected == next)
        #expect(queue.isEmpty && queue.first == nil)
    }
}
