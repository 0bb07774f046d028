/// When the delivery thread chooses what to send and when it naps: a policy without I/O (DeliveryPacingTests).
///
/// Reports that come in a burst (a feed appearing) leave together. After a choice that sent something, or that
/// found reports it could not send yet (a batch in flight: more are likely to follow), the next choice waits out
/// the batch window, unless a flush waits or a whole event batch is ready. A process that only stores (another
/// delivers) moves a burst into the database in one transaction after the window, rather than one per report.
/// While napping, new reports do not wake the thread: it would only nap again.
struct DeliveryPacing: Equatable, Sendable {
    /// The least time between two choices of what to send (outside flushes), so a burst goes out in few requests
    /// and the delivery thread does not compete with the reporting thread for the database.
    static let batchWindowNanoseconds: UInt64 = 5_000_000

    enum Step: Equatable, Sendable {
        /// Choose what to send now (the owner), or move what is journaled now (a process that only stores).
        case proceed
        /// Wait until this monotonic instant, unless something else wakes the thread first.
        case nap(until: UInt64)
    }

    /// When the window began: the last choice that sent something or found reports.
    private(set) var windowStart: UInt64 = 0

    private func step(now: UInt64) -> Step {
        let end = windowStart &+ Self.batchWindowNanoseconds
        return now < end ? .nap(until: end) : .proceed
    }

    /// The owner, about to choose: `hurry` when a flush waits or a whole event batch is ready.
    func owner(now: UInt64, hurry: Bool) -> Step { hurry ? .proceed : step(now: now) }

    /// The owner chose: `sent` whether anything went out, `took` whether reports woke the thread.
    mutating func chose(now: UInt64, sent: Bool, took: Bool) {
        if sent || took { windowStart = now }
    }

    /// A process that only stores, having `took` reports or not: whether to move them now.
    mutating func storer(now: UInt64, took: Bool) -> Step {
        if took { windowStart = now }
        return step(now: now)
    }
}
