/// When the driven transport sets the timer behind libcurl's timeouts: a policy without I/O (TimeoutTimerTests).
///
/// libcurl moves its next timeout with every transfer (a deadline once the request is out, none once it ends);
/// setting the timer each time cost one or two system calls a fetch. The timer is set only for a deadline earlier
/// than the one it is set for; a later one, or none, leaves it as it is. When it fires before libcurl's deadline,
/// the drive lets libcurl act on its timeouts all the same, and libcurl, called for a timeout, always tells its
/// next deadline again (multi.c forgets the deadline it last told on such a call, "when the application asks
/// libcurl to run the timeout prematurely"), which sets the timer. So a timeout is never late, and a fetch costs no
/// timer call while an earlier setting stands; the price is one early wake-up of the descriptor per setting, at
/// most. `test_fetch_io_on_dispatch_times_out_after_an_answered_fetch` holds libcurl to it.
struct TimeoutTimer: Equatable {
    /// libcurl asked for its timeouts to be handled at once: the drive in progress does it, without the timer.
    var dueNow = false
    /// When the timer expires (monotonic nanoseconds); nil when it is not set or has fired.
    private(set) var expiry: UInt64?

    /// libcurl's timer callback said `milliseconds` (-1 none, 0 at once) at `now`. Returns the instant to set the
    /// timer to expire at, or nil to leave it as it is.
    mutating func libcurlAsks(_ milliseconds: Int, now: UInt64) -> UInt64? {
        dueNow = milliseconds == 0
        guard milliseconds > 0 else { return nil }
        // libcurl's number is a C long; a deadline past the clock's range is one that never comes.
        let (span, spanOverflow) = UInt64(milliseconds).multipliedReportingOverflow(by: 1_000_000)
        let (deadline, overflow) = now.addingReportingOverflow(span)
        if spanOverflow || overflow { return nil }
        if let expiry, expiry <= deadline { return nil }
        expiry = deadline
        return deadline
    }

    /// The timer fired (its count was read).
    mutating func fired() { expiry = nil }

    /// A timeout due at once that the drive's rounds did not reach: the instant to set the timer to (now, so the
    /// descriptor says so to the next drive), or nil.
    mutating func keepDueVisible(now: UInt64) -> UInt64? {
        guard dueNow else { return nil }
        expiry = now
        return now
    }
}
