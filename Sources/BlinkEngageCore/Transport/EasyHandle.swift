internal import CCurl
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A libcurl easy handle with what its options point at (the header list, the error buffer), and the request
/// they were set for. Kept between requests by `CurlMulti`: a request byte-identical to the last one on a handle
/// is sent with the options already there, without a reset and a configuration (about 12K instructions a fetch).
final class PreparedHandle {
    let raw: UnsafeMutableRawPointer
    var headerList: UnsafeMutablePointer<curl_slist>?
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    /// The request the options were set for; nil when they are libcurl's defaults or a configuration failed.
    var configuredFor: HTTPRequest?
    /// Whether the options are libcurl's defaults (a new handle, or just reset).
    var isPristine = true

    init() throws(TransportError) {
        guard let raw = curl_easy_init() else { throw .network("libcurl could not create a handle") }
        self.raw = raw
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        curl_easy_cleanup(raw)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// Back to libcurl's defaults (every option and callback gone; connections stay with the multi handle).
    func reset() {
        curl_easy_reset(raw)
        curl_slist_free_all(headerList)
        headerList = nil
        configuredFor = nil
        isPristine = true
    }
}

/// One request on a prepared libcurl handle: the bytes and header fields received, and the completion.
/// libcurl's callbacks find it through the opaque pointer set as their user data.
final class EasyHandle {
    let prepared: PreparedHandle
    let request: HTTPRequest
    let completion: HTTPCompletion
    private(set) var body: [UInt8] = []
    private(set) var responseHeaders: [String: String] = [:]
    private(set) var exceededLimit = false
    /// Whether this transfer may send its request as TLS early data (see `CurlFeatures.earlyData`): false for the
    /// one sent again after a `425 Too Early`.
    let mayUseEarlyData: Bool

    /// - Parameters:
    ///   - prepared: the handle to send on.
    ///   - isConfigured: whether `prepared` is configured for a byte-identical request (`CurlMulti` looked): it is
    ///     then used as it is; otherwise it is configured here, reset first when it carries another request's options.
    ///   - options: the transport's: its network settings, and whether https requests wait to multiplex.
    init(on prepared: PreparedHandle, isConfigured: Bool, request: HTTPRequest, options: TransportOptions,
         earlyData: Bool = true, completion: @escaping HTTPCompletion) throws(TransportError) {
        self.prepared = prepared
        self.request = request
        mayUseEarlyData = earlyData && CurlFeatures.earlyData && request.method != .post && request.allowsEarlyData
        self.completion = completion
        prepared.errorBuffer.pointee = 0
        // A request sent again without early data is configured afresh, and its handle is not taken for an equal
        // request later (that one may use early data again).
        if !isConfigured || !earlyData {
            if !prepared.isPristine { prepared.reset() }
            // A configuration that fails halfway leaves the handle neither pristine nor configured: reset next time.
            prepared.isPristine = false
            try configure(options)
            prepared.configuredFor = earlyData ? request : nil
        }
        // This request's own state is what the callbacks reach.
        let owner = Unmanaged.passUnretained(self).toOpaque()
        try check(be_curl_easy_setopt_pointer(rawHandle, CURLOPT_WRITEDATA, owner), CURLOPT_WRITEDATA)
        try check(be_curl_easy_setopt_pointer(rawHandle, CURLOPT_PRIVATE, owner), CURLOPT_PRIVATE)
        if request.keepsResponseHeaders {
            try check(be_curl_easy_setopt_pointer(rawHandle, CURLOPT_HEADERDATA, owner), CURLOPT_HEADERDATA)
        }
    }

    var rawHandle: UnsafeMutableRawPointer { prepared.raw }

    private func set(_ option: CURLoption, _ value: Int) throws(TransportError) {
        try check(be_curl_easy_setopt_long(rawHandle, option, value), option)
    }

    private func set(_ option: CURLoption, _ value: String) throws(TransportError) {
        try check(value.withCString { be_curl_easy_setopt_string(rawHandle, option, $0) }, option)
    }

    /// Adds one header line (NUL-terminated C bytes) to the handle's list; false when libcurl is out of memory.
    private func append(_ line: UnsafePointer<CChar>) -> Bool {
        guard let appended = curl_slist_append(prepared.headerList, line) else { return false }
        prepared.headerList = appended
        return true
    }

    /// The largest body every libcurl sends without asking for 100-continue (newer ones wait until 1 MiB).
    private static let smallBody = 1024

    private func check(_ code: CURLcode, _ option: CURLoption) throws(TransportError) {
        guard code == CURLE_OK else {
            throw .network("cannot set option \(option.rawValue): \(String(cString: curl_easy_strerror(code)))")
        }
    }

    private func configure(_ options: TransportOptions) throws(TransportError) {
        // The one choke point for what leaves: whoever built the request, nothing with CR, LF or NUL reaches a
        // header line or the request line.
        try HTTPRequestRules.check(request)
        try set(CURLOPT_URL, request.url)
        // Signals are not safe off the main thread; the transport thread never wants them.
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_TIMEOUT_MS, Int(request.timeoutMilliseconds))
        // Only http and https, for the first request and for every redirect.
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        // Never from https down to http: a redirect must not strip the TLS the first request had.
        try set(CURLOPT_REDIR_PROTOCOLS_STR, HTTPRequestRules.redirectProtocols(for: request.url))
        try set(CURLOPT_FOLLOWLOCATION, request.followRedirects ? 1 : 0)
        try set(CURLOPT_MAXREDIRS, HTTPRequest.maximumRedirects)
        try set(CURLOPT_SSL_VERIFYPEER, 1)
        try set(CURLOPT_SSL_VERIFYHOST, 2)
        // The host's network settings, checked when they were configured (NetworkSettings).
        if let proxy = options.network.proxy { try set(CURLOPT_PROXY, proxy) }
        if let caFile = options.network.caFile { try set(CURLOPT_CAINFO, caFile) }
        if let pins = options.network.pinnedPublicKey { try set(CURLOPT_PINNEDPUBLICKEY, pins) }
        // TCP Fast Open where the loaded libcurl has it: without a cookie for the server, or where the kernel or the
        // server does not do it, the connection opens as it would without (the kernel falls back by itself). A
        // libcurl built without it refuses the option, and that changes nothing.
        if CurlFeatures.tcpFastOpen { _ = be_curl_easy_setopt_long(rawHandle, CURLOPT_TCP_FASTOPEN, 1) }
        // TLS 1.3 early data for a request that is safe to repeat (GET, HEAD), where the loaded libcurl has it.
        if mayUseEarlyData { _ = be_curl_easy_setopt_long(rawHandle, CURLOPT_SSL_OPTIONS, be_curlsslopt_earlydata) }
        // "" lets libcurl decode every encoding it can; what is offered is the header line below.
        try set(CURLOPT_ACCEPT_ENCODING, "")
        // Transfers to an https host whose connection is being made wait to learn whether it multiplexes (HTTP/2
        // by ALPN, at the end of the TLS handshake): then they share it instead of opening one connection each,
        // with a TCP and TLS handshake each. Never over plain http: there the wait lasts until the first answer,
        // and a hanging one would hold every other request to the host. Only where the transport wants it
        // (`TransportOptions.waitsToMultiplex`).
        let https = request.url.utf8.prefix(6).map { $0 | 0x20 }.elementsEqual("https:".utf8)
        try set(CURLOPT_PIPEWAIT, options.waitsToMultiplex && https ? 1 : 0)
        // Refuse early when the server announces a larger body; the write callback catches the rest.
        try check(be_curl_easy_setopt_off_t(rawHandle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maximumBodyBytes)),
                  CURLOPT_MAXFILESIZE_LARGE)
        try check(be_curl_easy_setopt_pointer(rawHandle, CURLOPT_ERRORBUFFER, prepared.errorBuffer), CURLOPT_ERRORBUFFER)

        // A prepared handle may have made a HEAD before: every method says whether a body comes back.
        try set(CURLOPT_NOBODY, request.method == .head ? 1 : 0)
        switch request.method {
        case .head:
            break
        case .get:
            try set(CURLOPT_HTTPGET, 1)
        case .post:
            let body = request.body ?? []
            try set(CURLOPT_POST, 1)
            try set(CURLOPT_POSTFIELDSIZE, body.count)
            // COPYPOSTFIELDS copies the body, so its lifetime is libcurl's concern.
            var terminated = body.map { CChar(bitPattern: $0) }
            terminated.append(0)  // POSTFIELDSIZE sets the length; the NUL only guards an empty body
            try check(terminated.withUnsafeBufferPointer { be_curl_easy_setopt_string(rawHandle, CURLOPT_COPYPOSTFIELDS, $0.baseAddress!) },
                      CURLOPT_COPYPOSTFIELDS)
        }

        // Each line is made as bytes in one buffer, which curl_slist_append copies.
        var line: [UInt8] = []
        for header in request.headers {
            line.removeAll(keepingCapacity: true)
            line.append(contentsOf: header.name.utf8)
            line.append(UInt8(ascii: ":"))
            line.append(UInt8(ascii: " "))
            line.append(contentsOf: header.value.utf8)
            line.append(0)
            guard line.withUnsafeBytes({ append($0.baseAddress!.assumingMemoryBound(to: CChar.self)) }) else {
                throw .network("out of memory for headers")
            }
        }
        // The encodings docs/PROTOCOL.md names, as a line of ours: libcurl would format its own offer of every encoding
        // it knows twice per request. "Name:" removes libcurl's default; an empty Expect means no 100-continue
        // round trip, which libcurl adds only to larger bodies.
        guard request.header("Accept-Encoding") != nil || append("Accept-Encoding: gzip, deflate"),
              request.header("Accept") != nil || append("Accept:"),
              request.method != .post || (request.body?.count ?? 0) <= Self.smallBody || append("Expect:") else {
            throw .network("out of memory for headers")
        }
        try check(be_curl_easy_setopt_slist(rawHandle, CURLOPT_HTTPHEADER, prepared.headerList), CURLOPT_HTTPHEADER)

        // The callbacks; their user data (this request's EasyHandle) is set by every request, in init.
        try check(be_curl_easy_setopt_data_fn(rawHandle, CURLOPT_WRITEFUNCTION) { data, size, count, owner in
            let handle = Unmanaged<EasyHandle>.fromOpaque(owner!).takeUnretainedValue()
            return handle.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
        }, CURLOPT_WRITEFUNCTION)
        // A request that keeps no header field has no header callback: libcurl then makes no call per line.
        if request.keepsResponseHeaders {
            try check(be_curl_easy_setopt_data_fn(rawHandle, CURLOPT_HEADERFUNCTION) { data, size, count, owner in
                let handle = Unmanaged<EasyHandle>.fromOpaque(owner!).takeUnretainedValue()
                handle.receiveHeader(UnsafeRawBufferPointer(start: data, count: size * count))
                return size * count
            }, CURLOPT_HEADERFUNCTION)
        }
    }

    /// Appends body bytes; returning less than offered makes libcurl abort the transfer.
    private func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        if body.count + bytes.count > request.maximumBodyBytes {
            exceededLimit = true
            return 0
        }
        // The announced length (never more than the limit) as the body's first capacity: one allocation, no
        // regrowth copies. A server that lies costs at most the limit, which a true body could cost anyway.
        if body.capacity == 0 {
            var announced: curl_off_t = -1
            if be_curl_easy_getinfo_off_t(rawHandle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &announced) == CURLE_OK, announced > 0 {
                body.reserveCapacity(Int(min(announced, curl_off_t(request.maximumBodyBytes))))
            }
        }
        // Typed, so the append is one copy (a raw buffer would be appended byte by byte).
        body.append(contentsOf: bytes.assumingMemoryBound(to: UInt8.self))
        return bytes.count
    }

    private func receiveHeader(_ bytes: UnsafeRawBufferPointer) {
        let line = bytes.assumingMemoryBound(to: UInt8.self)
        if line.count >= 5, line[0] == UInt8(ascii: "H"), line[1] == UInt8(ascii: "T"), line[2] == UInt8(ascii: "T"),
           line[3] == UInt8(ascii: "P"), line[4] == UInt8(ascii: "/") {
            // A new answer (after a redirect or 100-continue) starts a new header set, with room for the usual
            // dozen fields at once (growing from empty rehashed it four times).
            responseHeaders = Dictionary(minimumCapacity: 16)
            return
        }
        guard let field = HTTPResponse.headerField(line) else { return }
        responseHeaders[field.name] = field.value
    }

    /// When each phase ended: five getinfo reads, made only for a request the flight recorder follows.
    private var timings: HTTPTimings {
        var timings = HTTPTimings()
        func read(_ info: CURLINFO) -> Int64 {
            var value: curl_off_t = 0
            return be_curl_easy_getinfo_off_t(rawHandle, info, &value) == CURLE_OK ? Int64(value) : 0
        }
        timings.dnsMicroseconds = read(CURLINFO_NAMELOOKUP_TIME_T)
        timings.connectMicroseconds = read(CURLINFO_CONNECT_TIME_T)
        timings.tlsMicroseconds = read(CURLINFO_APPCONNECT_TIME_T)
        timings.firstByteMicroseconds = read(CURLINFO_STARTTRANSFER_TIME_T)
        timings.totalMicroseconds = read(CURLINFO_TOTAL_TIME_T)
        return timings
    }

    /// Whether the server answered `425 Too Early` to a request that went as early data: it asks for the request
    /// again, after the handshake (RFC 8470).
    func wasTooEarly(_ code: CURLcode) -> Bool {
        guard mayUseEarlyData, code == CURLE_OK else { return false }
        var status = 0, sent: curl_off_t = 0
        _ = be_curl_easy_getinfo_long(rawHandle, CURLINFO_RESPONSE_CODE, &status)
        return status == 425 && be_curl_easy_getinfo_earlydata_sent(rawHandle, &sent) == CURLE_OK && sent > 0
    }

    /// The outcome once libcurl reports the transfer done with `code`.
    func outcome(_ code: CURLcode) -> Result<HTTPResponse, TransportError> {
        if code == CURLE_OK {
            var status = 0
            _ = be_curl_easy_getinfo_long(rawHandle, CURLINFO_RESPONSE_CODE, &status)
            return .success(HTTPResponse(status: status, body: body, headers: responseHeaders,
                                         timings: request.recordsTimings ? timings : nil))
        }
        if exceededLimit || code == CURLE_FILESIZE_EXCEEDED { return .failure(.tooLarge(request.maximumBodyBytes)) }
        let errorBuffer = prepared.errorBuffer
        let detail = errorBuffer.pointee != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
        if code == CURLE_OPERATION_TIMEDOUT { return .failure(.timeout(detail)) }
        if code == CURLE_SSL_PINNEDPUBKEYNOTMATCH {
            return .failure(.network("the server's public key does not match the pinned public key (\(detail))"))
        }
        // Only a redirect can get here with another scheme: the first URL was checked before sending.
        if code == CURLE_UNSUPPORTED_PROTOCOL { return .failure(.network("a redirect to a URL that is not http(s) was refused: \(detail)")) }
        return .failure(.network(detail))
    }
}
