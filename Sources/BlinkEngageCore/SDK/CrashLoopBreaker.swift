/// What keeps one bad answer or stored file from crashing a host at every launch. The SDK marks its storage
/// directory while it does work that depends on stored or remote data (opening the database and recovering
/// journals at start; the first answer, from its request until it is decoded) and clears the mark after. A
/// start that finds the mark left by `threshold` consecutive starts (they died inside a window) starts in safe
/// mode: stored data is moved aside (kept), no cached answer is decoded, the SDK runs afresh. If that start dies
/// in a window too, the next one is inert for the process: fetches fail with a clear error and reports stay in
/// memory; the one after tries safe mode again. What was moved aside comes back at the first normal start after a
/// safe one that finished its windows: its queued reports are delivered then.
///
/// The policy, without I/O (CrashLoopBreakerTests); `BreakerFile` keeps its record in the storage directory.
struct CrashLoopBreaker: Sendable, Equatable {
    static let defaultThreshold = 3

    enum Mode: Int, Sendable, Equatable {
        case normal = 0, safe = 1, inert = 2
    }

    /// How many consecutive starts died inside a window, and whether the last one is inside one now.
    struct Record: Sendable, Equatable {
        var consecutive: Int
        var marked: Bool

        static let clean = Record(consecutive: 0, marked: false)

        /// "v1 <consecutive> <0|1>\n"; nil for anything else (the caller then starts clean: a damaged record is
        /// no reason to move anything aside).
        init?(text bytes: [UInt8]) {
            guard bytes.count <= 64, let text = String(validating: bytes, as: UTF8.self) else { return nil }
            let fields = text.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count == 3, fields[0] == "v1", fields[2] == "0\n" || fields[2] == "1\n",
                  fields[1].count <= 4, fields[1].allSatisfy({ $0.isASCII && $0.isNumber }),
                  let consecutive = Int(fields[1]) else { return nil }
            self.init(consecutive: consecutive, marked: fields[2] == "1\n")
        }

        init(consecutive: Int, marked: Bool) {
            self.consecutive = consecutive
            self.marked = marked
        }

        var text: [UInt8] { Array("v1 \(consecutive) \(marked ? 1 : 0)\n".utf8) }
    }

    let threshold: Int
    /// What this start is.
    let mode: Mode
    /// The record as this start leaves it while inside its first window.
    let record: Record

    /// The decision for a start that found `previous` (nil: none, or unreadable).
    init(previous: Record?, threshold: Int = defaultThreshold) {
        self.threshold = max(1, threshold)
        let found = previous ?? .clean
        // The previous start died inside a window: one more in a row. Otherwise the row is broken.
        let consecutive = found.marked ? min(found.consecutive + 1, 9999) : 0
        if consecutive < self.threshold {
            mode = .normal
            record = Record(consecutive: consecutive, marked: true)
        } else if consecutive == self.threshold {
            mode = .safe
            record = Record(consecutive: consecutive, marked: true)
        } else {
            // Safe mode died too. This start is inert and marks nothing; the next tries safe mode again.
            mode = .inert
            record = Record(consecutive: self.threshold - 1, marked: true)
        }
    }

    /// The record while no window is open: the row stays as it is until a start finds the mark cleared.
    var cleared: Record { Record(consecutive: record.consecutive, marked: false) }
}
