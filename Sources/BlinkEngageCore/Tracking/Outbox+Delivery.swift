#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The delivery thread: it takes reports, chooses what to send (OutboxQueue) and when (DeliveryPacing), sends,
/// applies the answers, and sleeps until there is something to do.
extension Outbox {
    func deliveryLoop() {
        var lastDataVersion = database.map { Self.dataVersion($0) } ?? 0
        var changed = false
        var pacing = DeliveryPacing()
        var napping = false  // waiting out the batch window: reports need not wake the thread
        var wroteSinceCheckpoint = false
        while true {
            // A directory change may be an instance dying (its files close): take over what its journal holds.
            let recovered = changed && recoverDeadJournals()
            let took = takeReports()
            let nowMonotonic = MonotonicClock.now()
            if recovered, ownership?.isHeld == true { adoptStoredItems(all: false) }
            // Deaf to the others (no watch, or none could be made now): look again after a while.
            var deaf = ownership.map { !hearsOthers($0) } ?? false
            if let ownership, !ownership.isHeld, changed || deaf {
                _ = isOwner
                lastDataVersion = database.map { Self.dataVersion($0) } ?? 0
                deaf = !hearsOthers(ownership)  // the owner now, or waiting on a new one
            }
            if let ownership, ownership.isHeld, changed || deaf, let database {
                // Another connection committed (another process's reports): take its rows.
                let version = Self.dataVersion(database)
                if version != lastDataVersion {
                    lastDataVersion = version
                    adoptStoredItems(all: false)
                }
            }
            let owner = ownership?.isHeld ?? true
            var wakeAt = UInt64.max
            if owner {
                wakeAt = min(wakeAt, dropExpired())
                let hurry = state.withLock { $0.queue.activeFlushes > 0 || $0.queue.hasFullEventBatch(now: nowMonotonic) }
                switch pacing.owner(now: nowMonotonic, hurry: hurry) {
                case .nap(let until):
                    wakeAt = min(wakeAt, until)
                    napping = true
                case .proceed:
                    let (work, selectedWakeAt) = state.withLock { $0.queue.selectWork(now: nowMonotonic) }
                    wakeAt = min(wakeAt, selectedWakeAt)
                    pacing.chose(now: nowMonotonic, sent: !work.isEmpty, took: took)
                    for unit in work { send(unit) }
                }
            } else if case .nap(let until) = pacing.storer(now: nowMonotonic, took: took) {
                wakeAt = min(wakeAt, until)
                napping = true
            }
            if deaf { wakeAt = min(wakeAt, nowMonotonic + Self.retryStoreNanoseconds) }
            // Journaled reports are moved into the database when the thread is about to wait, not during a burst's
            // batch window: those delivered first never cost the database a write. What is in flight stays in the
            // journal (see `OutboxQueue.movableJournaled`).
            let move = napping ? (succeeded: true, moved: 0) : moveJournaledItems()
            if move.moved > 0 { wroteSinceCheckpoint = true }
            // After sending: the next request is on its way while settled rows are deleted.
            if applyPendingStoreWork() { wroteSinceCheckpoint = true }
            if state.withLock({ $0.hasMemoryOnly }), !storeMemoryOnlyItems() {
                wakeAt = min(wakeAt, MonotonicClock.now() + Self.retryStoreNanoseconds)
            }
            if !move.succeeded { wakeAt = min(wakeAt, MonotonicClock.now() + Self.retryStoreNanoseconds) }
            let proceed = state.withLock { state -> Bool? in
                if state.stopping { return nil }
                return intake.withLock { intake -> Bool in
                    // While napping out a batch window, new reports wait for it to end (the flag stays set).
                    if state.wake || !intake.pending.isEmpty, !napping {
                        state.wake = false
                        return true
                    }
                    state.sleeping = !napping
                    state.napping = napping
                    intake.deliveryThreadWaits(napping: napping)
                    return false
                }
            }
            guard let proceed else { return }
            changed = false
            if !proceed, wroteSinceCheckpoint, state.withLock({ $0.queue.count == 0 && $0.pendingDeletes.isEmpty }) {
                // Nothing left to deliver: the moment to copy the WAL into the database, off every busy path.
                database?.checkpoint()
                wroteSinceCheckpoint = false
            }
            if !proceed {
                let reasons = waker.wait(until: wakeAt == UInt64.max ? nil : wakeAt)
                changed = reasons.contains(.directoryChanged) || (deaf && reasons.contains(.deadline))
                let wasNapping = napping
                napping = false
                state.withLock { state in
                    state.sleeping = false
                    state.napping = false
                    if !wasNapping { state.wake = false }
                    intake.withLock { $0.deliveryThreadRuns() }
                }
            }
        }
    }

    /// Whether this instance hears the other processes on its directory now (the watch reconnects when it can).
    func hearsOthers(_ ownership: OwnershipLock) -> Bool {
        ownership.watch?.reconnect(isOwner: ownership.isHeld) ?? false
    }

    /// Drops expired items; returns the monotonic instant the next one expires.
    func dropExpired() -> UInt64 {
        let nowWall = WallClock.milliseconds()
        let (expiredAge, overflow) = settings.maximumAgeSeconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return UInt64.max }
        let (dropped, oldest) = state.withLock { state in
            let dropped = state.queue.dropExpired(oldestAllowedMilliseconds: nowWall &- expiredAge)
            if !dropped.isEmpty { state.wake = true }  // a flush may be waiting for exactly these
            return (dropped, state.queue.oldestCreatedMilliseconds)
        }
        if !dropped.isEmpty {
            store.delete(Self.rowIDs(of: dropped))
            logger.info("dropped \(dropped.count) tracking items older than \(settings.maximumAgeSeconds) s")
        }
        guard let oldest else { return UInt64.max }
        let (expiresAt, late) = oldest.addingReportingOverflow(expiredAge)
        guard !late else { return UInt64.max }
        let wait = max(0, expiresAt - nowWall) + 1
        return MonotonicClock.now() + UInt64(min(wait, 86_400_000 * 365)) * 1_000_000
    }

    func send(_ work: OutboxQueue.Work) {
        switch work {
        case .beacon(let item):
            guard case .beacon(let url) = item.payload else { return }
            let request = HTTPRequest(
                method: .get, url: BeaconURL.bustingCache(url), headers: [("User-Agent", settings.userAgent)],
                timeoutMilliseconds: settings.timeoutMilliseconds, followRedirects: false)
            beaconTransport.send(request) { [self] outcome in finish(work, outcome) }
        case .events(let items, let identity):
            let token = authorization.withLock { $0 }?.bearerToken(forIdentity: identity)
            let engage = EngageRequests(baseURL: settings.engageURL ?? "", apiKey: settings.apiKey, userAgent: settings.userAgent,
                                        timeoutMilliseconds: settings.timeoutMilliseconds)
            let request = engage.events(
                items.compactMap { if case .event(let json, _, _) = $0.payload { json } else { nil } },
                privacyQuery: items.first.flatMap { if case .event(_, _, let privacy) = $0.payload { privacy } else { nil } } ?? "",
                token: token)
            transport.send(request) { [self] outcome in finish(work, outcome) }
        }
    }

    /// Applies the verdict on one send to its items (runs on the transport thread).
    func finish(_ work: OutboxQueue.Work, _ outcome: Result<HTTPResponse, TransportError>) {
        let now = MonotonicClock.now()
        let nowWall = WallClock.milliseconds()
        let isEvent: Bool
        let identity: String?
        switch work {
        case .events(_, let batchIdentity): isEvent = true; identity = batchIdentity
        case .beacon: isEvent = false; identity = nil
        }
        if isEvent, EngageRequests.refusesToken(outcome) {
            // Before the batch becomes ready again, so its retry can carry the new token.
            authorization.withLock { $0 }?.tokenWasRefused(forIdentity: identity)
        }
        var retryMilliseconds: Int64?
        let (verdict, mustSignal) = state.withLock { state -> (DeliveryVerdict, Bool) in
            let verdict = RetryPolicy.verdict(
                outcome, isEvent: isEvent, attempts: state.queue.attempts(of: work) + 1, nowEpochSeconds: nowWall / 1000,
                firstRetry: settings.firstRetryNanoseconds)
            switch outcome {
            case .failure(.network), .failure(.timeout): state.connectionFailures += 1  // a flush learns the network is down
            default: break
            }
            let settlement = state.queue.settle(work, verdict: verdict, now: now)
            state.pendingDeletes.formUnion(settlement.delete)
            for retry in settlement.retry {
                let waitMilliseconds = Int64(clamping: (retry.notBefore - now) / 1_000_000)
                retryMilliseconds = waitMilliseconds
                state.pendingRetries.append((retry.id, retry.attempts, nowWall + waitMilliseconds))
            }
            state.wake = true
            // Napping too: the next batch may be whole already.
            return (verdict, state.sleeping || state.napping)
        }
        if mustSignal { waker.signal() }
        let what = isEvent ? "event batch" : "beacon"
        if let retryMilliseconds { recorder?.decision("retry_scheduled", "\(what) of \(work.items.count) item(s) tried again in \(retryMilliseconds) ms") }
        if case .reject(let status) = verdict {
            var reason = "the server refused them with \(status)"
            if case .failure(let error) = outcome { reason = error.message }
            recorder?.decision(isEvent ? "events_dropped" : "beacon_dropped", "\(work.items.count) item(s): \(reason)")
            if case .failure(let error) = outcome {
                logger.warning("dropped \(work.items.count) tracking item(s): \(error.message)")
            } else {
                logger.warning("dropped \(work.items.count) tracking item(s): the server refused them with \(status)")
            }
        }
        if case .success(let response) = outcome, let retryAfter = response.headers["retry-after"],
           RetryPolicy.retryAfterSeconds(retryAfter, nowEpochSeconds: nowWall / 1000) == nil {
            logger.info("ignored a Retry-After that is unreadable or out of range: \"\(SafeText.clean(retryAfter))\"")
        }
    }
}
