/// Reports coming in: one journal write each, handed to the queue; the cap applied.
extension Outbox {
    /// Queues a beacon URL durably, as the `href` a browser would request.
    public func enqueueBeacon(url: String) throws(EngineFailure) {
        guard let href = ServiceURL.requestableHref(url) else { throw .invalidArgument("not an http(s) beacon URL: \(SafeText.clean(url))") }
        enqueue(.beacon(url: href))
    }

    /// Queues an event (its JSON object, carrying its own id) durably, to go out under `identity`.
    public func enqueueEvent(json: String, identity: String?, privacy: PrivacySignals = PrivacySignals()) throws(EngineFailure) {
        try requireEvents()
        enqueue(.event(json: json, identity: identity, privacy: privacy.encodedQuery))
    }

    /// Throws unless events can be delivered (an Engage URL is configured).
    public func requireEvents() throws(EngineFailure) {
        guard settings.engageURL != nil else { throw .invalidState("no Engage URL is configured: events cannot be delivered") }
    }

    /// One write to the journal. Without a journal, or when it refuses (a full disk), one insert; when the store
    /// refuses too, the item is kept in memory and written again every second and at shutdown, and delivered
    /// from memory meanwhile.
    func enqueue(_ payload: OutboxItem.Payload) {
        let created = clock.wallMilliseconds
        if let record = JournalRecord.encode(payload, createdMilliseconds: created),
           enqueueJournaled(payload, record, created) { return }
        // Queued inside the insert's `then`, before any read of the storage can see the row: a read never queues
        // it a second time.
        var outcome: (dropped: [OutboxItem], mustSignal: Bool)?
        var stored = false
        do {
            try storage.insert([(payload, created)], movingJournal: nil) { ids in
                outcome = queue(OutboxItem(id: ids[0], createdMilliseconds: created, payload: payload), memoryOnly: false)
            }
            stored = true
        } catch {
            logger.warning("could not store a tracking item (\(error.message)); keeping it in memory and trying again")
            outcome = queue(OutboxItem(id: intake.withLock { $0.takeMemoryID() }, createdMilliseconds: created, payload: payload),
                            memoryOnly: true)
        }
        guard let outcome else { return }
        if outcome.mustSignal { waker.signal() }
        // Another process delivers: tell it of the new row (its directory watch sees the lock file touched).
        if stored, let ownership, !ownership.isHeld { ownership.touch() }
        dropOverflowRows(outcome.dropped)
    }

    /// Queues an item stored (or kept in memory) without the journal: whether the delivery thread must be
    /// woken, and what is over the cap.
    private func queue(_ item: OutboxItem, memoryOnly: Bool) -> (dropped: [OutboxItem], mustSignal: Bool) {
        state.withLock { state in
            takePending(into: &state)  // keeps report order
            if memoryOnly { state.hasMemoryOnly = true }
            state.queue.append(item, memoryOnly: memoryOnly)
            // An event behind a batch in flight goes out when that batch's answer wakes the thread: no wake now.
            let sendable = !(item.isEvent && state.queue.eventBatchInFlight)
            return (state.queue.dropOverflow(), intake.withLock { $0.schedule.change(sendable: sendable) })
        }
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
        // call): it must look at the queue again before it sleeps. Their hand-off signalled it if that was due.
        if !taken.isEmpty { _ = intake.withLock { $0.schedule.change() } }
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

    func dropOverflowRows(_ dropped: [OutboxItem]) {
        guard !dropped.isEmpty else { return }
        storage.delete(Self.rowIDs(of: dropped))
        logger.warning("tracking queue over its cap of \(settings.maximumItems): dropped the \(dropped.count) oldest")
    }
}
