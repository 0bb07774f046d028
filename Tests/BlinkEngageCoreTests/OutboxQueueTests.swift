@testable import BlinkEngageCore
import Testing

/// The delivery rules without I/O or threads (docs/PROTOCOL.md section 4): what goes next, what a verdict does,
/// overflow and age.
struct OutboxQueueTests {
    static let second: UInt64 = 1_000_000_000

    static func beacon(_ id: Int64, host: String = "a.example", created: Int64 = 1000) -> OutboxItem {
        OutboxItem(id: id, createdMilliseconds: created, payload: .beacon(url: "http://\(host)/p\(id)"))
    }

    static func event(_ id: Int64, identity: String? = "u", created: Int64 = 1000) -> OutboxItem {
        OutboxItem(id: id, createdMilliseconds: created, payload: .event(json: #"{"id":"\#(id)"}"#, identity: identity))
    }

    static func queue(_ items: [OutboxItem] = [], maximumItems: Int = 10_000, eventsEnabled: Bool = true) -> OutboxQueue {
        var queue = OutboxQueue(maximumItems: maximumItems, eventsEnabled: eventsEnabled)
        for item in items { queue.append(item) }
        return queue
    }

    static func queue(adopting rows: [StoredOutboxRow]) -> OutboxQueue {
        var queue = queue()
        queue.adopt(rows, nowMonotonic: 5 * second, nowWallMilliseconds: 1_796_256_000_000)
        return queue
    }

    @Test func beaconsGoOneAtATimePerHostInQueueOrder() {
        var queue = Self.queue([Self.beacon(1, host: "a"), Self.beacon(2, host: "a"), Self.beacon(3, host: "b")])
        let (work, _) = queue.selectWork(now: 0)
        #expect(work == [.beacon(Self.beacon(1, host: "a")), .beacon(Self.beacon(3, host: "b"))])
        #expect(queue.selectWork(now: 0).work.isEmpty)  // host a is busy, b too
        _ = queue.settle(.beacon(Self.beacon(1, host: "a")), verdict: .delivered, now: 0)
        #expect(queue.selectWork(now: 0).work == [.beacon(Self.beacon(2, host: "a"))])
    }

    @Test func atMostEightBeaconsAtOnce() {
        var queue = Self.queue((1...20).map { Self.beacon($0, host: "h\($0)") })
        #expect(queue.selectWork(now: 0).work.count == OutboxQueue.maximumBeaconsInFlight)
    }

    @Test(arguments: [(1, 1), (100, 1), (101, 2), (250, 3)])
    func eventsGoInBatchesOfAtMostOneHundred(count: Int, batches: Int) {
        var queue = Self.queue((1...Int64(count)).map { Self.event($0) })
        var sent = 0
        for _ in 0..<batches {
            let work = queue.selectWork(now: 0).work
            #expect(work.count == 1)
            guard let batch = work.first else { return }
            #expect(batch.items.count <= OutboxQueue.maximumBatch)
            #expect(batch.items.first?.id == Int64(sent + 1))  // queue order
            sent += batch.items.count
            #expect(queue.selectWork(now: 0).work.isEmpty)  // one batch at a time
            _ = queue.settle(batch, verdict: .delivered, now: 0)
        }
        #expect(sent == count && queue.count == 0)
    }

    @Test func aBatchCarriesOneIdentity() {
        var queue = Self.queue([Self.event(1, identity: "a"), Self.event(2, identity: "b"), Self.event(3, identity: "a")])
        #expect(queue.selectWork(now: 0).work == [.events([Self.event(1, identity: "a"), Self.event(3, identity: "a")], identity: "a")])
    }

    @Test func noEventsWithoutAnEngageURL() {
        var queue = Self.queue([Self.event(1), Self.beacon(2)], eventsEnabled: false)
        #expect(queue.selectWork(now: 0).work == [.beacon(Self.beacon(2))])
        #expect(queue.flushableIDs == [2])
    }

    static let outcomes: [(DeliveryVerdict, deleted: Bool, attempts: Int, waits: Bool)] = [
        (.delivered, true, 0, false),
        (.reject(status: 404), true, 0, false),
        (.retry(afterNanoseconds: 3 * second, serverAsked: false), false, 1, true),
        (.retry(afterNanoseconds: 60 * second, serverAsked: true), false, 1, true),
        (.reauthorize, false, 1, true),
        (.untouched, false, 0, false),
    ]

    @Test(arguments: outcomes)
    func verdictsChangeTheQueue(verdict: DeliveryVerdict, deleted: Bool, attempts: Int, waits: Bool) {
        var queue = Self.queue([Self.beacon(1)])
        let work = queue.selectWork(now: 10 * Self.second).work[0]
        let settlement = queue.settle(work, verdict: verdict, now: 10 * Self.second)
        #expect(settlement.delete == (deleted ? [1] : []))
        #expect(queue.entry(1) == nil || queue.entry(1)?.attempts == attempts)
        #expect(settlement.retry.map(\.id) == (waits ? [1] : []))
        if waits {
            #expect(queue.selectWork(now: 10 * Self.second).work.isEmpty)        // backs off
            #expect(!queue.selectWork(now: 400 * Self.second).work.isEmpty)      // and is tried again later
        }
        if case .reject = verdict { #expect(queue.statistics.droppedRejected == 1 && queue.statistics.beaconsDropped == 1) }
        if case .delivered = verdict { #expect(queue.statistics.beaconsDelivered == 1) }
    }

    @Test func aFailingItemDoesNotHoldBackTheOnesBehindIt() {
        var queue = Self.queue([Self.beacon(1, host: "dead"), Self.beacon(2, host: "dead"), Self.beacon(3, host: "ok")])
        let first = queue.selectWork(now: 0).work
        for work in first where work.items[0].id == 1 { _ = queue.settle(work, verdict: .retry(afterNanoseconds: 5 * Self.second, serverAsked: false), now: 0) }
        #expect(queue.selectWork(now: 0).work == [.beacon(Self.beacon(2, host: "dead"))])
    }

    @Test func aFlushIgnoresBackoffOnceButHonoursRetryAfter() {
        var queue = Self.queue([Self.beacon(1, host: "a"), Self.beacon(2, host: "b")])
        let works = queue.selectWork(now: 0).work
        _ = queue.settle(works[0], verdict: .retry(afterNanoseconds: 100 * Self.second, serverAsked: false), now: 0)
        _ = queue.settle(works[1], verdict: .retry(afterNanoseconds: 100 * Self.second, serverAsked: true), now: 0)
        queue.activeFlushes = 1
        queue.flushGeneration += 1
        let (work, wakeAt) = queue.selectWork(now: Self.second)
        #expect(work == [.beacon(Self.beacon(1, host: "a"))])  // the server asked b to wait
        #expect(wakeAt == 100 * Self.second)
    }

    @Test(arguments: [(10, 3, [1, 2, 3] as [Int64]), (10, 0, [] as [Int64]), (1, 9, [1, 2, 3, 4, 5, 6, 7, 8, 9] as [Int64])])
    func overflowDropsTheOldest(cap: Int, excess: Int, dropped: [Int64]) {
        var queue = Self.queue((1...Int64(cap + excess)).map { Self.beacon($0, host: "h\($0)") }, maximumItems: cap)
        #expect(queue.dropOverflow().map(\.id) == dropped)
        #expect(queue.statistics.droppedOverflow == UInt64(excess))
    }

    @Test func overflowSparesItemsInFlight() {
        var queue = Self.queue([Self.beacon(1), Self.beacon(2, host: "b"), Self.beacon(3, host: "c")], maximumItems: 2)
        _ = queue.selectWork(now: 0)  // all three in flight
        #expect(queue.dropOverflow().isEmpty)
    }

    @Test func expiryDropsOldItemsAndTellsWhenTheNextExpires() {
        var queue = Self.queue([Self.beacon(1, created: 100), Self.beacon(2, created: 5000, ), Self.event(3, created: 200)])
        #expect(queue.dropExpired(oldestAllowedMilliseconds: 1000).map(\.id) == [1, 3])
        #expect(queue.statistics.droppedExpired == 2 && queue.statistics.eventsDropped == 1)
        #expect(queue.oldestCreatedMilliseconds == 5000)
    }

    @Test(arguments: [Int64.min, -1, 0, 1_796_256_000_000, 1_796_256_005_000, Int64.max])
    func storedRetryTimesNeverWaitPastTheBackoffCap(nextAttempt: Int64) {
        let queue = Self.queue(adopting: [StoredOutboxRow(item: Self.beacon(1), attempts: 3, nextAttemptMilliseconds: nextAttempt)])
        let entry = queue.entry(1)
        #expect(entry?.attempts == 3)
        #expect((entry?.notBefore ?? 0) <= 5 * Self.second + RetryPolicy.maximumBackoffNanoseconds)
    }

    /// Found by the outbox_row fuzz target: a stored retry time added to a clock near its end trapped.
    @Test func storedRetryTimesNeverOverflowTheClock() {
        var queue = Self.queue()
        queue.adopt([StoredOutboxRow(item: Self.beacon(1), attempts: 1, nextAttemptMilliseconds: Int64.max)],
                    nowMonotonic: UInt64.max - 5, nowWallMilliseconds: 0)
        #expect(queue.entry(1)?.notBefore == UInt64.max)
    }

    @Test func adoptedItemsJoinInCreationOrder() {
        var queue = Self.queue([Self.beacon(10, host: "a", created: 3000)])
        queue.adopt([StoredOutboxRow(item: Self.beacon(5, host: "a", created: 2000), attempts: 0, nextAttemptMilliseconds: 0),
                     StoredOutboxRow(item: Self.beacon(10, host: "a", created: 3000), attempts: 0, nextAttemptMilliseconds: 0)],
                    nowMonotonic: 0, nowWallMilliseconds: 0)
        #expect(queue.count == 2)
        #expect(queue.selectWork(now: 0).work == [.beacon(Self.beacon(5, host: "a", created: 2000))])
    }

    @Test func anItemStoredLateKeepsItsPlace() {
        var queue = Self.queue()
        queue.append(Self.beacon(-1, host: "a"), memoryOnly: true)
        queue.append(Self.beacon(7, host: "a"))
        #expect(queue.memoryOnlyIDs == [-1])
        queue.stored(pendingID: -1, as: 8)
        #expect(queue.memoryOnlyIDs.isEmpty)
        #expect(queue.selectWork(now: 0).work.first?.items.first?.id == 8)
    }

    // MARK: - The journal

    @Test func journaledReportsGoOutAndLeaveNothingToDeleteOrRecord() {
        var queue = Self.queue()
        let (first, second) = (Self.beacon(Int64.min + 1, host: "a"), Self.beacon(Int64.min + 2, host: "b"))
        queue.append(first, journalEnd: 10)
        queue.append(second, journalEnd: 20)
        #expect(queue.selectWork(now: 0).work == [.beacon(first), .beacon(second)])  // sent straight from the journal
        #expect(queue.settle(.beacon(first), verdict: .delivered, now: 0) == OutboxQueue.Settlement())  // no row to delete
        #expect(queue.settle(.beacon(second), verdict: .retry(afterNanoseconds: Self.second, serverAsked: false), now: 0)
                    == OutboxQueue.Settlement())  // no row to record the attempt in, yet
        #expect(queue.entry(second.id)?.attempts == 1)
    }

    @Test func theJournalMovesUpToTheFirstReportInFlight() {
        var queue = Self.queue()
        let items = [Self.beacon(Int64.min + 1, host: "a"), Self.beacon(Int64.min + 2, host: "a"), Self.beacon(Int64.min + 3, host: "b")]
        for (index, item) in items.enumerated() { queue.append(item, journalEnd: (index + 1) * 10) }
        var movable = queue.movableJournaled()
        #expect(movable.count == 3 && movable.items == items && movable.end == 30 && movable.all)

        _ = queue.selectWork(now: 0)  // the first and the third are in flight, the second waits for host a
        movable = queue.movableJournaled()
        #expect(movable.count == 0 && movable.items.isEmpty && movable.end == nil && !movable.all)

        _ = queue.settle(.beacon(items[0]), verdict: .delivered, now: 0)
        movable = queue.movableJournaled()  // past the delivered one, up to the third (in flight)
        #expect(movable.count == 2 && movable.items == [items[1]] && movable.end == 20 && !movable.all)

        #expect(queue.stored(journaled: [(old: items[1].id, new: 7)]).isEmpty)
        queue.forgetJournaled(first: movable.count)
        #expect(queue.journaled.map(\.id) == [items[2].id])
        #expect(queue.entry(7)?.isStored == true && queue.entry(items[1].id) == nil)
        _ = queue.settle(.beacon(items[2]), verdict: .delivered, now: 0)
        movable = queue.movableJournaled()
        #expect(movable.count == 1 && movable.items.isEmpty && movable.end == 30 && movable.all)
    }

    @Test func aReportDroppedWhileJournaledIsAnOrphanWhenItsRowArrives() {
        var queue = Self.queue(maximumItems: 1)
        queue.append(Self.event(Int64.min + 1), journalEnd: 10)
        queue.append(Self.event(Int64.min + 2), journalEnd: 20)
        #expect(queue.dropOverflow().map(\.id) == [Int64.min + 1])
        #expect(queue.stored(journaled: [(old: Int64.min + 1, new: 5), (old: Int64.min + 2, new: 6)]) == [5])
        #expect(queue.entry(6) != nil)
    }
}
