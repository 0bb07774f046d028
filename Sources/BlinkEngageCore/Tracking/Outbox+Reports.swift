#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reports coming in: one journal write each, handed to the queue; the cap applied.
extension Outbox {
    /// Queues a beacon URL durably, as the `href` a browser would request.
    public func enqueueBeacon(url: String) throws(EngineFailure) {
        guard let href = ServiceURL.requestableHref(url) else { throw .invalidArgument("not an http(s) beacon URL: \(SafeText.clean(url))") }
        enqueue(.beacon(url: href))
    }

    /// Queues an event (its JSON object, carrying its own id) durably, to go out under `identity`.
    public func enqueueEvent(json: String, identity: String?, privacy: PrivacySignals = PrivacySignals()) throws(EngineFailure) {
        guard settings.engageURL != nil else { throw .invalidState("no Engage URL is configured: events cannot be delivered") }
        enqueue(.event(json: json, identity: identity, privacy: privacy.encodedQuery))
    }

    /// One write to the journal. Without a journal, or when it refuses (a full disk), one insert; when the store
    /// refuses too, the item is kept in memory and written again every second and at shutdown, and delivered
    /// from memory meanwhile.
    func enqueue(_ payload: OutboxItem.Payload) {
        let created = WallClock.milliseconds()
        if let record = JournalRecord.encode(payload, createdMilliseconds: created),
           enqueueJournaled(payload, record, created) { return }
        var storedID: Int64?
        do {
            storedID = try store.insert(payload, createdMilliseconds: created)
        } catch {
            logger.warning("could not store a tracking item (\(error.message)); keeping it in memory and trying again")
        }
        let (dropped, mustSignal) = state.withLock { state -> ([OutboxItem], Bool) in
            takePending(into: &state)  // keeps report order
            let id = storedID ?? intake.withLock { $0.takeMemoryID() }
            if storedID == nil { state.hasMemoryOnly = true }
            let item = OutboxItem(id: id, createdMilliseconds: created, payload: payload)
            if let storedID, storedID <= state.lastLoadedID {
                // Between the insert and this lock the delivery thread read the row from the store: it is
                // queued from there, or already delivered and deleted. Queueing it again would send it twice.
                state.queue.countQueued(item)
            } else {
                state.queue.append(item, memoryOnly: storedID == nil)
            }
            return queued(item, in: &state)
        }
        if mustSignal { waker.signal() }
        // Another process delivers: tell it (its directory watch sees the lock file touched).
        if storedID != nil, let ownership, !ownership.isHeld { ownership.touch() }
        dropOverflowRows(dropped)
    }

    /// Appends the report to the journal and hands it to the queue, under the intake lock only; false when there
    /// is no journal or it refused the write.
    func enqueueJournaled(_ payload: OutboxItem.Payload, _ record: [UInt8], _ created: Int64) -> Bool {
        var failure: EngineFailure?
        let mustSignal = intake.withLock { intake -> Bool? in
            do throws(EngineFailure) {
                return try intake.append(record, payload: payload, createdMilliseconds: created)
            } catch {
                failure = error
                return nil
            }
        }
        if let failure { logger.warning("could not write a tracking item to the journal (\(failure.message))") }
        guard let mustSignal else { return false }
        if mustSignal { waker.signal() }
        return true
    }

    /// Moves the journaled reports the queue has yet to take into it (the caller applies the cap). Returns the
    /// journal's name, size and how much of it is moved, read with the same lock held: every record up to that
    /// size is then in the queue, or was delivered or dropped from it.
    @discardableResult
    func takePending(into state: inout OutboxState) -> (name: String, size: Int, consumed: Int)? {
        let (taken, journal) = intake.withLock { $0.takePending() }
        for (item, end) in taken { state.queue.append(item, journalEnd: end) }
        // Taken here, their hand-off can no longer wake the delivery thread (a move after a choice, a statistics
        // call): it must look at the queue again before it sleeps.
        if !taken.isEmpty { state.wake = true }
        return journal
    }

    /// On the delivery thread: takes the reports handed off since it last looked, applying the cap. Returns
    /// whether there were any.
    func takeReports() -> Bool {
        let (took, dropped) = state.withLock { state -> (Bool, [OutboxItem]) in
            let before = state.queue.journaled.count
            takePending(into: &state)
            return (state.queue.journaled.count > before, state.queue.dropOverflow())
        }
        dropOverflowRows(dropped)
        return took
    }

    /// After queueing `item`: whether the delivery thread must be woken, and what is over the cap.
    func queued(_ item: OutboxItem, in state: inout OutboxState) -> ([OutboxItem], Bool) {
        state.wake = true
        // An event behind a batch in flight goes out when that batch's answer wakes the thread: no wake now.
        let sendableNow = !(item.isEvent && state.queue.eventBatchInFlight)
        return (state.queue.dropOverflow(), state.sleeping && sendableNow)
    }

    func dropOverflowRows(_ dropped: [OutboxItem]) {
        guard !dropped.isEmpty else { return }
        store.delete(Self.rowIDs(of: dropped))
        logger.warning("tracking queue over its cap of \(settings.maximumItems): dropped the \(dropped.count) oldest")
    }
}
