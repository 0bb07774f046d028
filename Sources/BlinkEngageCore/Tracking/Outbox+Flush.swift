/// Flushes, and the end of an outbox: the delivery thread stopped, what the store is owed written, the lock let go.
extension Outbox {
    /// What a flush waits for, and what it knew when it began.
    struct FlushTicket: Sendable {
        let targets: Set<Int64>
        let connectionFailuresBefore: Int
        let abortGeneration: Int
    }

    /// Tries every queued item now (ignoring backoff, honouring Retry-After) and waits until everything queued
    /// before the call is delivered or dropped, at most `timeoutMilliseconds`.
    public func flush(timeoutMilliseconds: UInt32) -> FlushOutcome {
        guard let ticket = beginFlush() else { return .notOwner }
        defer { endFlush() }
        logger.debug("flush: waiting for \(ticket.targets.count) tracking item(s), at most \(timeoutMilliseconds) ms")
        // A real wait, whatever `clock` says: the host's thread blocks here.
        let deadline = MonotonicClock.deadline(afterMilliseconds: timeoutMilliseconds)
        let outcome = state.wait(until: { Self.progress(of: ticket, in: $0) != nil }, deadline: deadline) { Self.progress(of: ticket, in: $0) }
        return outcome.flatMap { $0 } ?? .timedOut
    }

    /// Starts a flush: what it waits for, with the delivery thread told to hurry; nil when another instance
    /// delivers. Every `beginFlush` that returns a ticket is followed by one `endFlush`.
    func beginFlush() -> FlushTicket? {
        guard isOwner else { return nil }
        // Items other processes queued count as "queued before the call" too: read them in now rather than rely
        // on their change notice having arrived.
        if ownership != nil { adoptStoredItems(all: false) }
        let (ticket, dropped) = state.withLock { state in
            takePending(into: &state)
            let dropped = state.queue.dropOverflow()
            state.queue.activeFlushes += 1
            state.queue.flushGeneration += 1
            return (FlushTicket(targets: state.flushTargets, connectionFailuresBefore: state.connectionFailures,
                                abortGeneration: state.flushAbortGeneration), dropped)
        }
        dropOverflowRows(dropped)
        noteUrgentChange()
        return ticket
    }

    /// Where a flush stands: nil while it must go on waiting.
    static func progress(of ticket: FlushTicket, in state: OutboxState) -> FlushOutcome? {
        if ticket.targets.allSatisfy({ state.isSettledAndStored($0) }) { return .delivered }
        if state.connectionFailures > ticket.connectionFailuresBefore { return .offline }
        if state.stopping || state.flushAbortGeneration != ticket.abortGeneration { return .timedOut }
        return nil
    }

    /// Where a flush stands now (tests that drive delivery themselves).
    func progress(of ticket: FlushTicket) -> FlushOutcome? { state.withLock { Self.progress(of: ticket, in: $0) } }

    func endFlush() {
        state.withLock { state in
            state.queue.activeFlushes -= 1
            if state.queue.activeFlushes == 0 { state.renamed = [:] }
        }
    }

    /// Ends every flush in progress now (they report `.timedOut`): shutdown must not wait for a host thread's
    /// long flush before its own bounded one.
    func abortFlushes() { state.withLock { $0.flushAbortGeneration += 1 } }

    /// Stops the delivery thread, then lets the sends in flight finish until `deadline` (monotonic): a send
    /// cancelled after the server took it would be sent again by the next owner. Whatever is still in flight
    /// then is left to the transport's shutdown, which cancels it without touching its items.
    func stopDelivering(waitingUntil deadline: UInt64 = 0) {
        state.withLock { $0.stopping = true }
        waker.signal()  // always: a pass that ends now stops instead of waiting
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
