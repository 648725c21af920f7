import CMalloc
@testable import ResponderCommands
import Testing

/// `responder run`'s heap thresholds take effect: an allocation just under the mmap threshold comes from the heap,
/// where glibc's default (128 KiB, raised only after a larger mapped block is freed) maps it on its own. In a fresh
/// process the allocation is mapped without ``WorkerHeap/keepFreedMemory()``.
@Suite struct WorkerHeapTests {
    @Test func anAllocationUnderTheMmapThresholdComesFromTheHeap() throws {
        #expect(WorkerHeap.keepFreedMemory())
        let block = try #require(malloc(Int(WorkerHeap.mmapThreshold) - (64 << 10)))
        defer { free(block) }
        // glibc's chunk header, the word before the block, has bit 1 (IS_MMAPPED) set for a block mapped on its
        // own. Read per block, unlike `mallinfo2().hblks`, which tests allocating in parallel would move.
        let header = block.load(fromByteOffset: -MemoryLayout<Int>.size, as: Int.self)
        #expect(header & 2 == 0, "mapped on its own: chunk header \(header)")
    }
}
