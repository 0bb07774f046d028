#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The large buffers of one decoded answer (its tape's entries, its text blocks and slot table), kept when the
/// answer is freed and handed to the next one, up to a limit in all (1 MiB for the shared one).
///
/// Freed, they made the C heap shrink and grow again at every fetch: glibc gives its top back to the kernel
/// above 128 KiB, so each fetch cost two `brk` calls and the page faults behind them, about a fifth of a
/// 50-offer fetch when the host's own thread does the fetch (BE_FETCH_IO_ON_DISPATCH). Sizes are rounded up to a
/// power of two of at least 16 KiB, so the next answer, of much the same size, finds its buffers.
final class RecycledBuffers: Sendable {
    /// One buffer, owned by exactly one holder: the cache or whoever took it.
    // Safe: a kept buffer is reachable only through the cache (under its lock) until taken, then only its taker's.
    struct Buffer: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
        let capacity: Int
    }

    private struct Cache {
        var buffers: [Buffer] = []
        var bytes = 0
    }

    /// The one every answer uses.
    static let shared = RecycledBuffers(limitBytes: 1 << 20)
    static let smallestBytes = 16 * 1024
    let limitBytes: Int
    private let cache = Locked(Cache())
    /// The process the cache belongs to. In a forked child its lock may have been held by a thread that did not
    /// come along, so a child allocates and frees directly and never touches the cache.
    private let generation = ForkGeneration.current()

    init(limitBytes: Int) { self.limitBytes = limitBytes }

    /// A buffer of at least `bytes` (uninitialised): a kept one when one is large enough, else a new one (always
    /// in a forked child).
    func take(atLeast bytes: Int) -> Buffer {
        let capacity = Self.roundedCapacity(bytes)
        guard ForkGeneration.current() == generation, let kept = cache.withLock({ cache -> Buffer? in
            // The smallest that fits: a 16 KiB request must not take the 128 KiB an answer's entries need.
            var best: Int?
            for index in cache.buffers.indices where cache.buffers[index].capacity >= capacity {
                if best.map({ cache.buffers[index].capacity < cache.buffers[$0].capacity }) ?? true { best = index }
            }
            guard let index = best else { return nil }
            cache.bytes -= cache.buffers[index].capacity
            return cache.buffers.remove(at: index)
        }) else { return Buffer(pointer: malloc(capacity)!, capacity: capacity) }
        return kept
    }

    /// Hands a buffer back: kept while the cache has room, freed otherwise (and always in a forked child).
    func give(_ buffer: Buffer) {
        guard ForkGeneration.current() == generation else { return free(buffer.pointer) }
        let kept = cache.withLock { cache -> Bool in
            guard cache.bytes + buffer.capacity <= limitBytes else { return false }
            cache.buffers.append(buffer)
            cache.bytes += buffer.capacity
            return true
        }
        if !kept { free(buffer.pointer) }
    }

    /// How many bytes the cache holds now (for tests).
    var keptBytes: Int { cache.withLock { $0.bytes } }

    /// `bytes` rounded up to a power of two, at least `smallestBytes`.
    static func roundedCapacity(_ bytes: Int) -> Int {
        guard bytes > smallestBytes else { return smallestBytes }
        let rounded = 1 << (Int.bitWidth - (bytes - 1).leadingZeroBitCount)
        return rounded > 0 ? rounded : bytes  // beyond the largest power of two an Int holds: as asked
    }
}
