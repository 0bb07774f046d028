#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The order in which the outbox's locks nest, written once: a thread holding a lock takes only locks of a
/// higher rank. Debug builds check it on every ranked acquisition and stop at the first inversion, naming both
/// locks, so a deadlock that needs two threads to meet shows up as a failed test on one. Release builds keep no
/// record and pay nothing. Locks without a rank (leaves that call out to nothing) are not checked.
enum LockRank: UInt8, Comparable, Sendable {
    /// `DirectoryOwnership`: taking the storage directory adopts its rows while this is held.
    case ownership = 1
    /// `OutboxStorage`'s own lock: reads of new rows never run beside deletes of settled ones.
    case storage
    /// `Outbox.state`: the queue and the bookkeeping around it.
    case outboxState
    /// `Outbox.intake`: the journal, the reports handed over and the delivery schedule.
    case intake
    /// `Database`'s connection: SQL runs under it, and calls out to nothing of the outbox.
    case database

    static func < (lhs: LockRank, rhs: LockRank) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether a thread holding `held` (innermost last) may wait for a lock of rank `next`.
    static func allows(_ next: LockRank, holding held: [LockRank]) -> Bool { held.last.map { $0 < next } ?? true }

    #if DEBUG
    /// The ranks the calling thread holds, innermost last: a per-thread array behind a thread-specific key.
    private final class Held {
        var ranks: [LockRank] = []
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { if let held = $0 { Unmanaged<AnyObject>.fromOpaque(held).release() } }
        return key
    }()

    private static var held: Held {
        if let existing = pthread_getspecific(key) { return Unmanaged<Held>.fromOpaque(existing).takeUnretainedValue() }
        let made = Held()
        pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
        return made
    }

    /// Before waiting for a lock of this rank: stops when the thread already holds one of this rank or higher.
    func willLock() {
        let held = Self.held
        guard Self.allows(self, holding: held.ranks) else {
            fatalError("lock order: \(self) taken while holding \(held.ranks) (see LockRank)")
        }
        held.ranks.append(self)
    }

    /// After taking a lock of this rank without waiting (a try-lock cannot deadlock, so it is not checked).
    func didTryLock() { Self.held.ranks.append(self) }

    func didUnlock() {
        let held = Self.held
        if let index = held.ranks.lastIndex(of: self) { held.ranks.remove(at: index) }
    }
    #endif
}
