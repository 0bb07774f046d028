/// One thing to deliver: a tracking beacon (a URL to GET) or a feed event (a JSON object to POST in a batch).
public struct OutboxItem: Sendable, Equatable {
    public enum Payload: Sendable, Equatable {
        /// The beacon URL exactly as the offer gave it; `{cbuster}` is replaced at each send.
        case beacon(url: String)
        /// The event object as JSON text (it carries its own `id`), the identity it was reported under, and the
        /// privacy signals in force then (as Engage query parameters), which its batch carries.
        case event(json: String, identity: String?, privacy: String = "")
    }

    /// The item's row in the store (queue order across processes); negative while it lives in memory only.
    public var id: Int64
    /// Wall-clock milliseconds since 1970 when queued; the maximum age counts from here, across restarts.
    public let createdMilliseconds: Int64
    public let payload: Payload

    public var isEvent: Bool {
        if case .event = payload { return true }
        return false
    }

    /// The destination host (with port) that beacons are serialised by; "" for events.
    var host: String {
        if case .beacon(let url) = payload { return BeaconURL.host(of: url) }
        return ""
    }
}
