internal import CCurl

/// libcurl's global initialisation, done once on first use and never undone: a host may still use curl
/// itself, and `curl_global_cleanup` is not thread-safe. First use is a transport's thread or first drive
/// (`CurlTransport`, `DrivenTransport`), not `be_sdk_start`: OpenSSL's initialisation under it is about 2.3M
/// instructions and reads its configuration file.
enum CurlGlobal {
    private static let initialisation: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    static var isReady: Bool { initialisation == CURLE_OK }

    /// What a request gets where the transport's multi handle could not be made (`CurlMulti`'s failure).
    static func unavailable(_ failure: EngineFailure) -> TransportError { .network("libcurl could not start: \(failure.message)") }

    /// Called where a transport is made, on the thread that makes it: a libcurl whose global initialisation is not
    /// thread-safe (before 7.84) gets it here, before the transport's threads start, as its documentation asks.
    static func prepareUnlessThreadSafe() {
        if !CurlFeatures.threadSafeInit { _ = isReady }
    }
}
