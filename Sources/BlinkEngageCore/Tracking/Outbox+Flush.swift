#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Flushes, and the end of an outbox: the delivery thread stopped, what the store is owed written, the lock let go.
extension Outbox {
    /// Tries every queued item now (ignoring backoff, honouring Retry-After) and waits until everything queued
    /// before the call is delivered or dropped, at most `timeoutMilliseconds`.
    public func flush(timeoutMilliseconds: UInt32) -> FlushOutcome {
        guard isOwner else { return .notOwner }
        // Items other processes queued count as "queued before the call" too: read them in now rather than rely
        // on their change notice having arrived.
        if ownership != nil { adoptStoredItems(all: false) }
        let deadline = MonotonicClock.deadline(afterMilliseconds: timeoutMilliseconds)
        let (pending, failuresBefore, abortGeneration, dropped) = state.withLock { state in
            takePending(into: &state)
            let dropped = state.queue.dropOverflow()
            state.queue.activeFlushes += 1
            state.queue.flushGeneration += 1
            state.wake = true
            return (state.flushTargets, state.connectionFailures, state.flushAbortGeneration, dropped)
        }
        dropOverflowRows(dropped)
        waker.signal()  // always: the thread may be napping out a batch window
        defer {
            state.withLock { state in
                state.queue.activeFlushes -= 1
                if state.queue.activeFlushes == 0 { state.renamed = [:] }
            }
        }
        logger.debug("flush: waiting for \(pending.count) tracking item(s), at most \(timeoutMilliseconds) ms")
        let outcome = state.wait(until: { state in
            state.stopping || state.flushAbortGeneration != abortGeneration || state.connectionFailures > failuresBefore
                || pending.allSatisfy { state.isSettledAndStored($0) }
        }, deadline: deadline) { state -> FlushOutcome in
            if pending.allSatisfy({ state.isSettledAndStored($0) }) { return .delivered }
            return state.connectionFailures > failuresBefore ? .offline : .timedOut
        }
        return outcome ?? .timedOut
    }

    /// Ends every flush in progress now (they report `.timedOut`): shutdown must not wait for a host thread's
    /// long flush before its own bounded one.
    func abortFlushes() { state.withLock { $0.flushAbortGeneration += 1 } }

    /// Stops the delivery thread, then lets the sends in flight finish until `deadline` (monotonic): a send
    /// cancelled after the server took it would be sent again by the next owner. Whatever is still in flight
    /// then is left to the transport's shutdown, which cancels it without touching its items.
    func stopDelivering(waitingUntil deadline: UInt64 = 0) {
        state.withLock { $0.stopping = true }
        waker.signal()
        thread.withLock { $0 }?.join()
        _ = state.wait(until: { !$0.queue.eventBatchInFlight && $0.queue.beaconsInFlight == 0 }, deadline: deadline) { _ in }
        applyPendingStoreWork()
    }

    /// Writes what the store still owes (settled rows, items the disk refused) and gives up the lock.
    func close() {
        applyPendingStoreWork()
        moveJournaledItems()
        storeMemoryOnlyItems()
        // Deleted when everything in it is in the database; otherwise left for the next start to recover.
        intake.withLock { $0.close() }
        let left = state.withLock { $0.queue.memoryOnlyIDs.count }
        if left > 0 { logger.warning("\(left) tracking item(s) could not be stored and are lost at exit") }
        ownership?.release()
    }
}
