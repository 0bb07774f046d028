@testable import BlinkEngageCore
import Testing

/// The outbox's bookkeeping beside its queue: renames a flush follows, rows owed to the store.
struct OutboxStateTests {
    static func event(_ id: Int64) -> OutboxItem {
        OutboxItem(id: id, createdMilliseconds: 1000, payload: .event(json: #"{"id":"\#(id)"}"#, identity: "u"))
    }

    @Test func aFlushFollowsItsItemsIntoTheStore() {
        var state = OutboxState(queue: OutboxQueue(maximumItems: 100, eventsEnabled: true))
        state.queue.append(Self.event(-1), memoryOnly: true)
        state.queue.append(Self.event(-2), memoryOnly: true)
        #expect(!state.isSettledAndStored(-1))
        state.queue.activeFlushes = 1
        let first = state.stored(pendingID: -1, as: 41)
        #expect(first)
        #expect(state.renamed == [-1: 41])
        #expect(!state.isSettledAndStored(-1))  // now row 41, still queued
        let unknown = state.stored(pendingID: -9, as: 42)
        #expect(!unknown)  // not queued: nothing recorded
        state.queue.activeFlushes = 0
        let second = state.stored(pendingID: -2, as: 43)
        #expect(second)
        #expect(state.renamed[-2] == nil)  // no flush waits: no rename kept
        state.pendingDeletes = [41]
        _ = state.queue.eraseAll()
        #expect(!state.isSettledAndStored(-1))  // settled, but its row is not deleted yet
        state.pendingDeletes = []
        #expect(state.isSettledAndStored(-1))
    }

    @Test func aFlushWaitsForTheRowsOfItemsSettledJustBefore() {
        var state = OutboxState(queue: OutboxQueue(maximumItems: 100, eventsEnabled: true))
        state.queue.append(Self.event(7))
        #expect(state.flushTargets == [7])
        // Delivered before the flush began; its row is still owed a delete.
        let settlement = state.queue.settle(.events([Self.event(7)], identity: "u"), verdict: .delivered, now: 1)
        state.pendingDeletes.formUnion(settlement.delete)
        #expect(state.queue.count == 0)
        #expect(state.flushTargets == [7])
        #expect(!state.isSettledAndStored(7))
        state.pendingDeletes.remove(7)
        #expect(state.isSettledAndStored(7))
    }
}
