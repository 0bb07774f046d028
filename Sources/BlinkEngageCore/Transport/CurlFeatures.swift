internal import CCurl

/// What the libcurl loaded at run time can do, read once from `curl_version_info`: the SDK links whichever
/// `libcurl.so.4` the system has, so a feature is used only when the library in the process has it.
enum CurlFeatures {
    /// libcurl's version as 0xXXYYZZ.
    static let version: UInt32 = be_curl_version_info().map { UInt32($0.pointee.version_num) } ?? 0

    /// `CURLOPT_TCP_FASTOPEN` (libcurl 7.49 and later; Linux and macOS): a connection to a server that gave this
    /// machine a cookie carries its first flight (the TLS ClientHello, or the request) in the SYN. The kernel keeps
    /// cookies per server for every process, so a new process's first connection saves the round trip too.
    static let tcpFastOpen: Bool = {
        #if os(Linux) || os(macOS)
        return version >= 0x07_31_00
        #else
        return false
        #endif
    }()

    /// `CURLSSLOPT_EARLYDATA` (libcurl 8.11 and later, with a TLS library that does it): a request safe to repeat
    /// rides in the first flight of a resumed TLS 1.3 connection, so a reconnect to a server that takes early data
    /// costs one round trip with TCP Fast Open. A server may answer `425 Too Early` (RFC 8470): `CurlMulti` sends
    /// the request again without it.
    static let earlyData = version >= 0x08_0B_00

    /// `CURL_VERSION_THREADSAFE` (libcurl 7.84 and later, where the system allows): `curl_global_init` may run on
    /// any thread while others run, so the SDK's threads make it rather than `be_sdk_start` (`CurlGlobal`).
    static let threadSafeInit: Bool = be_curl_version_info().map { $0.pointee.features & CURL_VERSION_THREADSAFE != 0 } ?? false
}
