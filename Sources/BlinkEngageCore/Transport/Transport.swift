/// How the engine sends HTTP: libcurl on a thread of its own (`CurlTransport`), or the host's own stack through
/// `be_config_set_http_transport` (`HostTransport`). Everything above this line (queueing, batching, retries,
/// backoff, Retry-After, 401, size caps, timeouts) is the engine's and the same for both.
///
/// Completions run on the transport's own thread, exactly once per `send`: with the answer, a transport error,
/// or `.cancelled` when `shutdown` comes first. They must be quick and must not block on the transport.
public protocol Transport: AnyObject, Sendable {
    /// Queues a request. `completion` runs exactly once on the transport thread; after `shutdown` it runs with
    /// `.cancelled` on the calling thread.
    func send(_ request: HTTPRequest, completion: @escaping HTTPCompletion)
    /// Runs `action` on the transport thread about `nanoseconds` from now (it must be quick, like a completion).
    /// Dropped, never run, when the transport shuts down first.
    func schedule(afterNanoseconds nanoseconds: UInt64, _ action: @escaping @Sendable () -> Void)
    /// How many requests were handed to the transport so far.
    var requestsSent: UInt64 { get }
    /// Cancels everything in flight, stops the thread and waits for it. Every completion has run on return.
    func shutdown()
}

/// What a transport is made with.
public struct TransportOptions: Sendable {
    public var maximumTotalConnections = 8
    public var maximumConnectionsPerHost = 4
    /// The transport thread's name (at most 15 bytes).
    public var threadName = "be-transport"
    public var network = NetworkOptions()
    /// Whether a request to an https host whose connection is still being made waits to learn if it can share it
    /// (HTTP/2), rather than open one of its own. Against an HTTP/1.1 server the wait costs the handshake: off
    /// where requests are few and each is waited for (the service's), on where many go at once (images).
    public var waitsToMultiplex = true
    public init() {}

    public init(threadName: String, maximumTotalConnections: Int, maximumConnectionsPerHost: Int) {
        self.threadName = threadName
        self.maximumTotalConnections = maximumTotalConnections
        self.maximumConnectionsPerHost = maximumConnectionsPerHost
    }
}

/// The built-in transport's network settings (`be_config_set_proxy`, `_ca_file`, `_pinned_public_key`).
public struct NetworkOptions: Sendable, Equatable {
    /// `http://`, `https://` or `socks5h://` proxy URL; nil connects directly.
    public var proxy: String?
    /// A PEM bundle of trusted CAs used instead of the system's; nil trusts the system's.
    public var caFile: String?
    /// libcurl's pinned public key list ("sha256//BASE64;sha256//..."); nil pins nothing.
    public var pinnedPublicKey: String?
    public init() {}
}
