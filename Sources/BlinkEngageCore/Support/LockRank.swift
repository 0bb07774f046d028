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

    /// Whether a thread whose innermost ranked lock is `innermost` (nil: none) may wait for a lock of rank `next`.
    static func allows(_ next: LockRank, after innermost: LockRank?) -> Bool { innermost.map { $0 < next } ?? true }

    #if DEBUG
    /// The ranks the calling thread holds, one byte each, innermost lowest, packed into the thread-specific value
    /// itself: no allocation and no type metadata, so a forked child that takes a lock needs nothing of the
    /// runtime that a thread of its parent may have held at the fork.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    private static var held: UInt64 {
        get { UInt64(UInt(bitPattern: pthread_getspecific(key))) }
        set { pthread_setspecific(key, UnsafeRawPointer(bitPattern: UInt(newValue))) }
    }

    /// Before waiting for a lock of this rank: stops when the thread already holds one of this rank or higher.
    func willLock() {
        let held = Self.held
        let innermost = LockRank(rawValue: UInt8(truncatingIfNeeded: held))
        guard Self.allows(self, after: innermost) else {
            fatalError("lock order: \(self) taken while holding \(innermost.map { "\($0)" } ?? "?") (see LockRank)")
        }
        Self.held = held << 8 | UInt64(rawValue)
    }

    /// After taking a lock of this rank without waiting (a try-lock cannot deadlock, so it is not checked).
    func didTryLock() { Self.held = Self.held << 8 | UInt64(rawValue) }

    /// Forgets the innermost hold of this rank.
    func didUnlock() {
        let held = Self.held
        for shift in stride(from: 0, to: 64, by: 8) where UInt8(truncatingIfNeeded: held >> UInt64(shift)) == rawValue {
            let below = shift == 0 ? 0 : held & ((1 << UInt64(shift)) - 1)
            Self.held = (held >> UInt64(shift + 8)) << UInt64(shift) | below
            return
        }
    }
    #endif
}
