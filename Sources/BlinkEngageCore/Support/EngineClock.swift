/// The time the outbox reads, handed in so that tests can set it: monotonic nanoseconds for deadlines and
/// backoff, wall-clock milliseconds for what must survive a restart (item ages, retry times).
protocol EngineClock: Sendable {
    /// `MonotonicClock.now()` in the system's clock.
    var monotonicNanoseconds: UInt64 { get }
    /// `WallClock.milliseconds()` in the system's clock.
    var wallMilliseconds: Int64 { get }
}

/// The system's clocks.
struct SystemClock: EngineClock {
    var monotonicNanoseconds: UInt64 { MonotonicClock.now() }
    var wallMilliseconds: Int64 { WallClock.milliseconds() }
}
