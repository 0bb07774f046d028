extension SDK {
    /// Opens the connections the next fetch needs, with TLS done, and keeps them (`be_sdk_warm_up`): one `HEAD`
    /// of the Moments host's root, and of the Engage host's when it is another, answered with any status. Over a
    /// kept connection a fetch costs one round trip instead of three (TCP, TLS 1.3, the request). Returns at
    /// once. The connection then lives within libcurl's and the server's limits; nothing polls to keep it: a
    /// later warm-up or fetch opens it again. With a host's transport it does nothing: the connections are the
    /// host's.
    public func warmUp() throws(EngineFailure) {
        try hostCall { () throws(EngineFailure) in openConnectionsAhead() }
    }

    /// The warm-up itself: at start (`SDKConfiguration.warmUpAtStart`) and for `warmUp`.
    func openConnectionsAhead() {
        guard configuration.hostHTTPSend == nil else { return }
        let moments = BeaconURL.origin(of: configuration.momentsURL)
        var targets: [(String, any Transport)] = moments.map { [($0, fetchTransport)] } ?? []
        if let engage = configuration.engageURL.flatMap(BeaconURL.origin), engage != moments { targets.append((engage, transport)) }
        for (origin, via) in targets {
            let request = HTTPRequest(method: .head, url: origin + "/", headers: [("User-Agent", configuration.effectiveUserAgent)],
                                      timeoutMilliseconds: configuration.timeoutMilliseconds, followRedirects: false)
            recorder?.decision("warm_up", "a connection to \(origin) opened ahead of the next request")
            // Sent from the transport's own drive, not here: a `send` on this thread would make the transfer and
            // its connection on the caller's thread (at start, about 115K instructions of be_sdk_start).
            via.schedule(afterNanoseconds: 0) { [logger] in
                via.send(request) { outcome in
                    if case .failure(let error) = outcome { logger.debug("warm-up of \(origin) failed: \(error.message)") }
                }
            }
        }
    }
}
