/// What the delivery thread carries from one pass to the next.
struct DeliveryLoop: Sendable {
    /// The storage's data version at the last read of other processes' rows.
    var lastDataVersion: Int64
    /// The directory changed since the last pass (or, deaf to it, the time to look again came).
    var changed = false
    /// Deaf to the other processes (no watch, or none could be made now): look again after a while.
    var deaf = false
    var pacing = DeliveryPacing()
    /// Waiting out the batch window: reports need not wake the thread.
    var napping = false
    var wroteSinceCheckpoint = false
}

/// What the delivery thread does after a pass.
enum DeliveryWait: Equatable, Sendable {
    /// Another pass at once: something changed during this one.
    case again
    /// Wait for a signal, a directory change, or this monotonic instant (nil: no deadline).
    case wait(until: UInt64?)
    /// The outbox is stopping.
    case stop
}

/// The delivery thread: passes that take reports, choose what to send (OutboxQueue) and when (DeliveryPacing),
/// send, and write what the storage is owed; between them it waits as the pass says. The thread is this loop
/// and the wait; tests drive `deliveryPass` themselves with a manual clock and a transport of their own.
extension Outbox {
    func deliveryLoop() {
        var loop = DeliveryLoop(lastDataVersion: storage.dataVersion())
        while true {
            switch deliveryPass(&loop) {
            case .stop: return
            case .again: continue
            case .wait(let until):
                let reasons = waker.wait(until: until)
                woke(&loop, directoryChanged: reasons.contains(.directoryChanged), deadlinePassed: reasons.contains(.deadline))
            }
        }
    }

    /// After a wait: what woke the thread.
    func woke(_ loop: inout DeliveryLoop, directoryChanged: Bool, deadlinePassed: Bool) {
        loop.changed = directoryChanged || (loop.deaf && deadlinePassed)
        loop.napping = false
        intake.withLock { $0.schedule.woke() }
    }

    /// One pass of the delivery thread: returns what to wait for.
    func deliveryPass(_ loop: inout DeliveryLoop) -> DeliveryWait {
        // A directory change may be an instance dying (its files close): take over what its journal holds.
        let recovered = loop.changed && recoverDeadJournals()
        let took = takeReports()
        let nowMonotonic = clock.monotonicNanoseconds
        if recovered, ownership?.isHeld == true { adoptStoredItems(all: false) }
        loop.deaf = ownership.map { !$0.hearsOthers } ?? false
        if let ownership, !ownership.isHeld, loop.changed || loop.deaf {
            _ = isOwner
            loop.lastDataVersion = storage.dataVersion()
            loop.deaf = !ownership.hearsOthers  // the owner now, or waiting on a new one
        }
        if let ownership, ownership.isHeld, loop.changed || loop.deaf {
            // Another connection committed (another process's reports): take its rows.
            let version = storage.dataVersion()
            if version != loop.lastDataVersion {
                loop.lastDataVersion = version
                adoptStoredItems(all: false)
            }
        }
        let owner = ownership?.isHeld ?? true
        var wakeAt = UInt64.max
        if owner {
            wakeAt = min(wakeAt, dropExpired())
            let hurry = state.withLock { $0.queue.activeFlushes > 0 || $0.queue.hasFullEventBatch(now: nowMonotonic) }
            switch loop.pacing.owner(now: nowMonotonic, hurry: hurry) {
            case .nap(let until):
                wakeAt = min(wakeAt, until)
                loop.napping = true
            case .proceed:
                let (work, selectedWakeAt) = state.withLock { $0.queue.selectWork(now: nowMonotonic) }
                wakeAt = min(wakeAt, selectedWakeAt)
                loop.pacing.chose(now: nowMonotonic, sent: !work.isEmpty, took: took)
                for unit in work { send(unit) }
            }
        } else if case .nap(let until) = loop.pacing.storer(now: nowMonotonic, took: took) {
            wakeAt = min(wakeAt, until)
            loop.napping = true
        }
        if loop.deaf { wakeAt = min(wakeAt, nowMonotonic + Self.retryStoreNanoseconds) }
        // Journaled reports are moved into the storage when the thread is about to wait, not during a burst's
        // batch window: those delivered first never cost the storage a write. What is in flight stays in the
        // journal (see `OutboxQueue.movableJournaled`).
        let move = loop.napping ? (succeeded: true, moved: 0) : moveJournaledItems()
        if move.moved > 0 { loop.wroteSinceCheckpoint = true }
        // After sending: the next request is on its way while settled rows are deleted.
        if applyPendingStoreWork() { loop.wroteSinceCheckpoint = true }
        if state.withLock({ $0.hasMemoryOnly }), !storeMemoryOnlyItems() {
            wakeAt = min(wakeAt, clock.monotonicNanoseconds + Self.retryStoreNanoseconds)
        }
        if !move.succeeded { wakeAt = min(wakeAt, clock.monotonicNanoseconds + Self.retryStoreNanoseconds) }
        let napping = loop.napping
        let waits = state.withLock { state -> Bool? in
            if state.stopping { return nil }
            return intake.withLock { $0.schedule.willWait(napping: napping, reportsPending: !$0.pending.isEmpty) }
        }
        guard let waits else { return .stop }
        loop.changed = false
        guard waits else { return .again }
        if loop.wroteSinceCheckpoint, state.withLock({ $0.queue.count == 0 && $0.pendingDeletes.isEmpty }) {
            // Nothing left to deliver: the moment to fold the written pages into the storage, off every busy path.
            storage.checkpoint()
            loop.wroteSinceCheckpoint = false
        }
        return .wait(until: wakeAt == UInt64.max ? nil : wakeAt)
    }

    /// Drops expired items; returns the monotonic instant the next one expires.
    func dropExpired() -> UInt64 {
        let nowWall = clock.wallMilliseconds
        let (expiredAge, overflow) = settings.maximumAgeSeconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return UInt64.max }
        let (dropped, oldest) = state.withLock { state in
            let dropped = state.queue.dropExpired(oldestAllowedMilliseconds: nowWall &- expiredAge)
            return (dropped, state.queue.oldestCreatedMilliseconds)
        }
        if !dropped.isEmpty {
            storage.delete(Self.rowIDs(of: dropped))
            logger.info("dropped \(dropped.count) tracking items older than \(settings.maximumAgeSeconds) s")
        }
        guard let oldest else { return UInt64.max }
        let (expiresAt, late) = oldest.addingReportingOverflow(expiredAge)
        guard !late else { return UInt64.max }
        let wait = max(0, expiresAt - nowWall) + 1
        return clock.monotonicNanoseconds + UInt64(min(wait, 86_400_000 * 365)) * 1_000_000
    }

    func send(_ work: OutboxQueue.Work) {
        switch work {
        case .beacon(let item):
            guard case .beacon(let url) = item.payload else { return }
            var request = HTTPRequest(
                method: .get, url: BeaconURL.bustingCache(url), headers: [("User-Agent", settings.userAgent)],
                timeoutMilliseconds: settings.timeoutMilliseconds, followRedirects: false)
            request.allowsEarlyData = false  // every arrival counts: early data could be replayed by the network
            let via = BeaconURL.origin(of: url).map(settings.serviceOrigins.contains) == true ? transport : beaconTransport
            via.send(request) { [self] outcome in finish(work, outcome) }
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
        let now = clock.monotonicNanoseconds
        let nowWall = clock.wallMilliseconds
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
            // Napping too: the next batch may be whole already.
            return (verdict, intake.withLock { $0.schedule.change(endsNap: true) })
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
