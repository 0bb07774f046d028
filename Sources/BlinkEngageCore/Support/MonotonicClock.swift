#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Nanoseconds on CLOCK_MONOTONIC: immune to wall-clock changes, used for every deadline and backoff.
public enum MonotonicClock {
    public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Whole milliseconds from now until `deadline`, rounded up so a wake-up never comes before it: the
    /// timeout `poll` takes. 0 once it has passed.
    public static func pollMilliseconds(until deadline: UInt64) -> Int32 {
        let now = now()
        return deadline <= now ? 0 : Int32(clamping: (deadline - now + 999_999) / 1_000_000)
    }

    /// The instant `milliseconds` from now.
    public static func deadline(afterMilliseconds milliseconds: UInt32) -> UInt64 {
        now() + UInt64(milliseconds) * 1_000_000
    }
}
