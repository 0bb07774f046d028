/// The views of every offer the host reports visibility for, by the SDK's monotonic clock
/// (`SDK.reportVisibility`). Offers are told apart by identity: the same offer in two groups of a feed is two
/// views. A report takes one lock and makes no allocation and no system call while the offer's view goes on;
/// beginning a view may schedule a check at its deadline (one at a time: a check schedules the next), so an
/// offer that stays on screen becomes viewable without another report.
final class ViewTracker: Sendable {
    struct Impression: Sendable {
        let offer: Offer
        /// The monotonic instant the view became viewable.
        let instant: UInt64
    }

    private struct Entry {
        var view: ViewState
        let offer: Offer
    }

    private struct Table {
        var entries: [ObjectIdentifier: Entry]
        var stopped = false
        /// The instant of the check scheduled, if one is.
        var scheduledCheck: UInt64?
        var counted: UInt64 = 0
    }

    let rule: ViewabilityRule
    private let table: Locked<Table>
    private let clock: @Sendable () -> UInt64
    /// Runs the action about that many nanoseconds from now, on some thread of the SDK's.
    private let schedule: @Sendable (UInt64, @escaping @Sendable () -> Void) -> Void
    private let counted = Locked<(@Sendable (Impression) -> Void)?>(nil)

    /// - Parameters:
    ///   - clock: the monotonic clock (injected by tests).
    ///   - schedule: runs a check later (the first-party transport's `schedule`); tests run it when they like.
    init(rule: ViewabilityRule, clock: @escaping @Sendable () -> UInt64 = MonotonicClock.now,
         schedule: @escaping @Sendable (UInt64, @escaping @Sendable () -> Void) -> Void) {
        self.rule = rule
        self.clock = clock
        self.schedule = schedule
        var entries: [ObjectIdentifier: Entry] = [:]
        entries.reserveCapacity(64)  // a screenful of offers without a reallocation
        table = Locked(Table(entries: entries))
    }

    /// Sets what is called once per viewable impression, outside the tracker's lock (set once, after the owner
    /// is whole: the SDK, which holds the tracker, is known to it only weakly).
    func whenCounted(_ action: @escaping @Sendable (Impression) -> Void) { counted.withLock { $0 = action } }

    /// How many viewable impressions were counted and handed on.
    var impressions: UInt64 { table.withLock { $0.counted } }

    /// How many views are in progress or counted and still on screen.
    var activeViews: Int { table.withLock { $0.entries.count } }

    /// `offer` is `fraction` visible now. Any thread.
    func report(_ offer: Offer, fraction: Double) {
        let key = ObjectIdentifier(offer)
        let (instant, check) = table.withLock { table -> (UInt64?, UInt64?) in
            guard !table.stopped else { return (nil, nil) }
            let now = clock()  // under the lock: reports are applied in the order of their instants
            var entry = table.entries[key] ?? Entry(view: ViewState(), offer: offer)
            let instant = entry.view.report(fraction, at: now, rule)
            if entry.view.phase == .away {
                table.entries[key] = nil
            } else {
                table.entries[key] = entry
            }
            return (instant, checkToSchedule(&table, for: entry.view.deadline(rule)))
        }
        if let instant { record([Impression(offer: offer, instant: instant)]) }
        if let check { scheduleCheck(at: check) }
    }

    /// The instant a check must be scheduled for a view ending at `deadline`; nil when one is due no later.
    private func checkToSchedule(_ table: inout Table, for deadline: UInt64?) -> UInt64? {
        guard let deadline, deadline != UInt64.max else { return nil }
        if let scheduled = table.scheduledCheck, scheduled <= deadline { return nil }
        table.scheduledCheck = deadline
        return deadline
    }

    private func scheduleCheck(at instant: UInt64) {
        let now = clock()
        schedule(instant > now ? instant - now : 0) { [weak self] in self?.check() }
    }

    /// Counts the views that reached their deadline, and schedules the check of the next one. What a scheduled
    /// check runs; tests call it too.
    func check() {
        var reached: [Impression] = []
        let next = table.withLock { table -> UInt64? in
            table.scheduledCheck = nil
            guard !table.stopped else { return nil }
            let now = clock()
            var earliest: UInt64?
            for key in Array(table.entries.keys) {
                guard var entry = table.entries[key] else { continue }
                if let instant = entry.view.advance(to: now, rule) {
                    reached.append(Impression(offer: entry.offer, instant: instant))
                    table.entries[key] = entry
                } else if let deadline = entry.view.deadline(rule) {
                    earliest = min(earliest ?? deadline, deadline)
                }
            }
            return checkToSchedule(&table, for: earliest)
        }
        if !reached.isEmpty { record(reached.sorted { $0.instant < $1.instant }) }
        if let next { scheduleCheck(at: next) }
    }

    /// Hands the impressions on (their durable events), then counts them: a count someone reads is of views
    /// already recorded, so a process killed right after reading it loses none of them.
    private func record(_ impressions: [Impression]) {
        let action = counted.withLock { $0 }
        for impression in impressions { action?(impression) }
        table.withLock { $0.counted += UInt64(impressions.count) }
    }

    /// Shutdown: views in progress count nothing, and no report counts after.
    func stop() {
        table.withLock { table in
            table.stopped = true
            table.entries = [:]
        }
    }
}
