#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Wall-clock time, for what must survive a restart (item ages, retry times, image freshness).
enum WallClock {
    static func nanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    static func milliseconds() -> Int64 { Int64(nanoseconds() / 1_000_000) }

    static func seconds() -> Int64 { Int64(nanoseconds() / 1_000_000_000) }
}
