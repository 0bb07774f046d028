internal import CCurl

/// libcurl's global initialisation, done once on first use and never undone: a host may still use curl
/// itself, and `curl_global_cleanup` is not thread-safe.
enum CurlGlobal {
    private static let initialisation: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    static var isReady: Bool { initialisation == CURLE_OK }
}
