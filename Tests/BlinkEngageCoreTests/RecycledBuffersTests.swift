import Testing
@testable import BlinkEngageCore

/// The buffer cache's policy, without I/O: sizes, best fit, the limit.
@Suite struct RecycledBuffersTests {
    @Test(arguments: [(0, 16_384), (1, 16_384), (16_384, 16_384), (16_385, 32_768), (77_000, 131_072),
                      (131_072, 131_072), (131_073, 262_144)])
    func roundsUpToAPowerOfTwoOfAtLeast16KiB(bytes: Int, capacity: Int) {
        #expect(RecycledBuffers.roundedCapacity(bytes) == capacity)
    }

    @Test func aBufferGivenBackIsTheNextOneTaken() {
        let cache = RecycledBuffers(limitBytes: 1 << 20)
        let first = cache.take(atLeast: 70_000)
        #expect(first.capacity == 131_072)
        cache.give(first)
        #expect(cache.keptBytes == 131_072)
        let second = cache.take(atLeast: 80_000)
        #expect(second.pointer == first.pointer)
        #expect(cache.keptBytes == 0)
        cache.give(second)
    }

    @Test func theSmallestThatFitsIsTaken() {
        let cache = RecycledBuffers(limitBytes: 1 << 20)
        let large = cache.take(atLeast: 100_000), small = cache.take(atLeast: 10_000)
        cache.give(large)
        cache.give(small)
        // A text block must not take the buffer an answer's entries need.
        let block = cache.take(atLeast: 16_384)
        #expect(block.pointer == small.pointer)
        let entries = cache.take(atLeast: 120_000)
        #expect(entries.pointer == large.pointer)
        // Nothing kept is large enough: a new one.
        let huge = cache.take(atLeast: 300_000)
        #expect(huge.capacity == 524_288)
        for buffer in [block, entries, huge] { cache.give(buffer) }
    }

    @Test func keepsNoMoreThanItsLimit() {
        let cache = RecycledBuffers(limitBytes: 40_000)
        let a = cache.take(atLeast: 1), b = cache.take(atLeast: 1), c = cache.take(atLeast: 1)
        cache.give(a)
        cache.give(b)
        cache.give(c)  // 3 × 16 KiB is over the limit: freed
        #expect(cache.keptBytes == 32_768)
        let taken = [cache.take(atLeast: 1), cache.take(atLeast: 1)]
        #expect(cache.keptBytes == 0)
        let none = RecycledBuffers(limitBytes: 0)
        for buffer in taken { none.give(buffer) }  // a cache without room frees what it is given
        #expect(none.keptBytes == 0)
    }
}
