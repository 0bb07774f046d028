/// One thing to deliver: a tracking beacon (a URL to GET) or a feed event (a JSON object to POST in a batch).
public struct OutboxItem: Sendable, Equatable {
    public enum Payload: Sendable, Equatable {
        /// The beacon URL exactly as the offer gave it; `{cbuster}` is replaced at each send.
        case beacon(url: String)
        /// The event object as JSON text (it carries its own `id`), and the identity it was reported under.
        case event(json: String, identity: String?)
    }

    /// Unique, and ordered as the items were queued: the name of its file.
    public let name: String
    /// Wall-clock milliseconds since 1970 when queued; the maximum age counts from here, across restarts.
    public let createdMilliseconds: Int64
    public let payload: Payload

    public var isEvent: Bool {
        if case .event = payload { return true }
        return false
    }
}
