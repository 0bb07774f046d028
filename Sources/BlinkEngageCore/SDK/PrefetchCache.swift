/// Moments answers fetched ahead of time (`be_sdk_prefetch_moments_offers`), each handed to one later fetch of an
/// equal request (same parameters, payload and privacy signals) within the TTL, then gone: its beacons and click
/// URLs belong to one session. A fetch made while the prefetch is in flight joins it. Memory only.
final class PrefetchCache: Sendable {
    struct Key: Equatable, Sendable {
        let request: MomentsRequest
        let privacy: PrivacySignals
    }

    typealias Waiter = @Sendable (Result<MomentsResponse, ServiceError>) -> Void

    enum Claim {
        case ready(MomentsResponse)
        /// The waiter will get the prefetch's result when it arrives.
        case joined
        case miss
    }

    private enum Slot: Sendable {
        case inFlight(waiter: Waiter?)
        case ready(MomentsResponse, expiresAt: UInt64)
    }

    private struct Entry: Sendable {
        let key: Key
        let token: UInt64
        var slot: Slot
    }

    private struct State: Sendable {
        var entries: [Entry] = []
        var nextToken: UInt64 = 1
        var hits: UInt64 = 0
    }

    private let state = Locked(State())
    let ttlNanoseconds: UInt64

    init(ttlNanoseconds: UInt64) { self.ttlNanoseconds = ttlNanoseconds }

    /// Fetches handed a prefetched answer so far.
    var hits: UInt64 { state.withLock { $0.hits } }

    /// Starts a prefetch for `key`; nil when one is in flight or waiting for it already (nothing to do).
    func begin(_ key: Key, now: UInt64 = MonotonicClock.now()) -> UInt64? {
        state.withLock { state in
            state.entries.removeAll { if case .ready(_, let expiresAt) = $0.slot { expiresAt <= now } else { false } }
            guard !state.entries.contains(where: { $0.key == key }) else { return nil }
            let token = state.nextToken
            state.nextToken += 1
            state.entries.append(Entry(key: key, token: token, slot: .inFlight(waiter: nil)))
            return token
        }
    }

    /// A fetch of `key`: the prefetched answer (consumed), a place behind the prefetch in flight, or a miss.
    func claim(_ key: Key, waiter: @escaping Waiter, now: UInt64 = MonotonicClock.now()) -> Claim {
        state.withLock { state in
            guard let index = state.entries.firstIndex(where: { $0.key == key }) else { return .miss }
            switch state.entries[index].slot {
            case .ready(let response, let expiresAt):
                state.entries.remove(at: index)
                guard expiresAt > now else { return .miss }
                state.hits += 1
                return .ready(response)
            case .inFlight(let existing):
                guard existing == nil else { return .miss }  // another fetch already owns this answer
                state.entries[index].slot = .inFlight(waiter: waiter)
                return .joined
            }
        }
    }

    /// The prefetch `token` finished. A success waits for its fetch (or goes to the one that joined); a failure
    /// is not kept. Returns the joined fetch to hand the result to, if any.
    func finish(_ token: UInt64, _ result: Result<MomentsResponse, ServiceError>, now: UInt64 = MonotonicClock.now()) -> Waiter? {
        state.withLock { state in
            guard let index = state.entries.firstIndex(where: { $0.token == token }),
                  case .inFlight(let waiter) = state.entries[index].slot else { return nil }
            switch result {
            case .success(let response) where waiter == nil:
                let (expiresAt, overflow) = now.addingReportingOverflow(ttlNanoseconds)
                state.entries[index].slot = .ready(response, expiresAt: overflow ? UInt64.max : expiresAt)
            case .success:
                state.entries.remove(at: index)
                state.hits += 1
            case .failure:
                state.entries.remove(at: index)
            }
            return waiter
        }
    }

    /// Forgets every prefetched answer (erasure), and every prefetch in flight: its answer, made for the erased
    /// user, is dropped when it arrives. A fetch that joined a prefetch in flight, as a fetch made before the
    /// erasure, still gets its result.
    func removeAll() {
        state.withLock { state in
            state.entries.removeAll { if case .inFlight(let waiter) = $0.slot { waiter == nil } else { true } }
        }
    }
}
