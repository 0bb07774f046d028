@testable import BlinkEngageCore
import Foundation
import TestSupport
import Testing

/// The libcurl transport against the sandbox: connection reuse, protocol and redirect limits, TLS
/// verification, the size cap and cancellation.
@Suite(.serialized)
final class TransportTests {
    let sandbox: SandboxProcess
    let transport: CurlTransport

    init() throws {
        sandbox = try SandboxProcess()
        transport = try CurlTransport()
    }

    deinit {
        transport.shutdown()
        sandbox.stop()
    }

    /// Sends and waits (generously) for the completion.
    func send(_ request: HTTPRequest, via transport: Transport? = nil) -> Result<HTTPResponse, TransportError> {
        let box = ConditionLock<Result<HTTPResponse, TransportError>?>(nil)
        (transport ?? self.transport).send(request) { outcome in box.withLock { $0 = outcome } }
        return box.wait(until: { $0 != nil }, deadline: MonotonicClock.now() + 60_000_000_000) { $0 }!!
    }

    func get(_ path: String) -> HTTPRequest {
        HTTPRequest(method: .get, url: sandbox.url + path, timeoutMilliseconds: 30_000)
    }

    /// A driven transport makes its multi handle (and libcurl's global initialisation with it) in its first drive,
    /// never in `send` (test_start.c sees which thread): a request sent before any drive is started by the drives
    /// and answered, a shutdown before any drive cancels what was queued, and a drive after it does nothing.
    @Test func aDrivenTransportMakesItsHandleInItsFirstDrive() throws {
        let driven = try DrivenTransport(options: TransportOptions(), alsoReadableWith: -1)
        let first = ConditionLock<Result<HTTPResponse, TransportError>?>(nil)
        driven.send(get("/cdn/campaigns/1201/main.png")) { outcome in first.withLock { $0 = outcome } }
        // Drive as a host's be_sdk_dispatch would, whenever the descriptor is readable, until it is answered.
        var ready = pollfd(fd: driven.descriptor, events: Int16(POLLIN), revents: 0)
        let deadline = MonotonicClock.now() + 60_000_000_000
        while first.withLock({ $0 }) == nil, MonotonicClock.now() < deadline {
            _ = poll(&ready, 1, 1000)
            driven.drive()
        }
        #expect(try first.withLock { $0 }?.get().status == 200)
        driven.shutdown()

        let idle = try DrivenTransport(options: TransportOptions(), alsoReadableWith: -1)
        let queued = ConditionLock<Result<HTTPResponse, TransportError>?>(nil)
        idle.send(get("/cdn/campaigns/1201/main.png")) { outcome in queued.withLock { $0 = outcome } }
        idle.shutdown()
        #expect(queued.withLock { $0 } == .failure(.cancelled))
        idle.drive()  // after the shutdown: nothing to start, and no handle is made
        idle.send(get("/")) { outcome in queued.withLock { $0 = outcome } }
        #expect(queued.withLock { $0 } == .failure(.cancelled))
    }

    /// The canonical-URL fast path accepts only URLs that the parser writes back unchanged and that libcurl reads
    /// as http(s) with a host; it leaves the rest (upper case, no path, default ports, IP literals in other
    /// spellings, bytes the serialiser encodes) to the parser.
    @Test(arguments: [
        ("https://track.example.com/sdk/offer_click?o_id=4001&c_id=1201&fp=USER_FP", true),
        ("http://127.0.0.1:8080/cdn/c/9001.png", true), ("http://127.0.0.01/", false), ("http://127.1/", false),
        ("http://256.0.0.1/", false), ("http://1.2.3.4.5/", false), ("http://cdn.example:8080/cdn/c/9001.png", true),
        ("https://a-b.example/x%20y#frag", true), ("http://a/x%zz", true), ("http://a/%zz", true), ("http://a/%2E/", false), ("https://example.com", false),
        ("https://example.com:65535/", true), ("https://example.com:443/", false), ("http://example.com:80/", false),
        ("https://example.com:80/", true), ("http://a:080/", false), ("http://a..b/", false), ("http://-a/", false),
        ("http://a-/", true), ("http://xn--a/", true), ("http://a:0/", false), ("http://a:65536/", false),
        ("http://a:123456/", false), ("HTTP://a/", false), ("http://A/", false), ("http://a/ b", false),
        ("http://user@a/", false), ("http://[::1]/", true), ("http://[2001:db8::1]:8080/x", true),
        ("http://[0:0::1]/", false), ("http://[::FFFF:1]/", false), ("http://[1:0:0:2::3]/", true), ("http://[1::2:0:0:3]/", true), ("http://[1::2:0:0:0:3]/", false),
        ("http://[::ffff:1.2.3.4]/", false), ("http://[::1]:80/", false), ("javascript:alert(1)", false), ("http:///x", false),
        ("http://a/{x}?cb={cbuster}|^", false), ("http://a/x?cb={cbuster}|^", true), ("http://a/x?q=`", false), ("http://a/x?q='", false),
        ("http://a/x#'", false), ("http://a/x#`", false), ("http://a/x?q=\"", false), ("http://a/x\\", false),
        ("http://a/./x", false), ("http://a/x/../y", false), ("http://a/%2e/", false), ("http://a/.x", false),
        ("http://a/x.y/z.", true), ("http://a?q", false), ("http://a#f", false), ("http://a/é", false),
        ("http://a/\u{7F}", false), ("", false),
    ])
    func canonicalURLsAreTheirOwnHref(url: String, canonical: Bool) {
        #expect(URLParts.isCanonicalHTTP(url) == canonical, "\(url)")
        if canonical {
            #expect(Array(url.utf8).withUnsafeBufferPointer { WebURL.href($0) } == Array(url.utf8), "\(url)")
            #expect(URLParts.libcurlReadsAsHTTP(url), "\(url)")
        }
    }

    /// The 16-byte blocks after the host agree with the parser: every byte value at every position of paths,
    /// queries and fragments around the block edges, in URLs shorter and longer than a block. Whatever the fast
    /// path accepts the parser writes back unchanged; whatever the parser writes back unchanged the fast path
    /// accepts, but for what it leaves to the parser on purpose (a '.' or "%2e" starting a path segment, '\'' in
    /// a fragment, '`' in a query).
    @Test func theBlocksAfterTheHostAgreeWithTheParser() {
        for prefix in ["http://h/", "https://h.example/"] {
            for (section, lead) in [("path", ""), ("query", "?"), ("fragment", "#")] {
                for length in [1, 6, 7, 15, 16, 17, 31, 32, 33] {
                    for position in Set([0, 1, length / 2, 14, 15, 16, 17, length - 1]) where position < length {
                        for byte in UInt8.min...UInt8.max {
                            var rest = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                            rest[position] = byte
                            let url = Array(prefix.utf8) + Array(lead.utf8) + rest
                            let canonical = url.withUnsafeBufferPointer { URLParts.isCanonicalHTTP($0) }
                            let same = url.withUnsafeBufferPointer { WebURL.href($0) } == url
                            let leftOnPurpose = (section == "path" && position == 0 && byte == UInt8(ascii: "."))
                                || (section != "path" && (byte == UInt8(ascii: "'") || byte == UInt8(ascii: "`")))
                            if canonical { #expect(same, "\(section): byte \(byte) at \(position) of \(length) after \(prefix)") }
                            if same, !leftOnPurpose { #expect(canonical, "\(section): byte \(byte) at \(position) of \(length) after \(prefix)") }
                        }
                    }
                }
            }
        }
    }

    /// The host's 16-byte blocks agree with the host rules read a byte at a time (lower-case labels of letters,
    /// digits and hyphens, each starting with a letter or digit, between single dots, the last not starting with
    /// a digit unless the host is a dotted-decimal address; ':', '/', '?' or '#' ends the host): every byte value
    /// at the edges of the blocks of hosts of several lengths, alone or right after a dot.
    @Test func theHostBlocksAgreeWithTheByteRules() {
        func isLowerAlphanumeric(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "a") < 26 || ASCII.isDigit(byte) }
        func expected(_ host: [UInt8]) -> Bool {
            let end = host.firstIndex { [UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")].contains($0) } ?? host.count
            // A ':' starts a port, and no port here is all digits before the path; '?' and '#' need a '/' first.
            if end < host.count, host[end] != UInt8(ascii: "/") { return false }
            let labels = host[..<end].split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            if let last = labels.last?.first, ASCII.isDigit(last) { return false }  // no host here is an address
            return end > 0 && labels.allSatisfy { label in
                guard let first = label.first, isLowerAlphanumeric(first) else { return false }
                return label.allSatisfy { isLowerAlphanumeric($0) || $0 == UInt8(ascii: "-") }
            }
        }
        for length in [1, 2, 14, 15, 16, 17, 18, 31, 32, 33, 40] {
            for position in [0, 1, 14, 15, 16, 17, 30, 31, 32, length - 1] where position < length {
                for afterDot in [false, true] where !afterDot || position > 0 {
                    for byte in UInt8.min...UInt8.max {
                        var host = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                        if afterDot { host[position - 1] = UInt8(ascii: ".") }
                        host[position] = byte
                        let url = Array("https://".utf8) + host + Array("/p".utf8)
                        let canonical = url.withUnsafeBufferPointer { URLParts.isCanonicalHTTP($0) }
                        #expect(canonical == expected(host), "byte \(byte) at \(position) of \(length), after a dot: \(afterDot)")
                        if canonical { #expect(url.withUnsafeBufferPointer { WebURL.href($0) } == url) }
                    }
                }
            }
        }
    }

    /// Every printable ASCII byte the fast path takes in a path, a query or a fragment is taken as it is by
    /// libcurl; the space, controls and DEL are not URL bytes.
    @Test func everyCanonicalByteIsLibcurlsToo() {
        for byte in UInt8(0x21)...0x7E {
            let character = String(UnicodeScalar(byte))
            for url in ["https://h.example/p\(character)x", "https://h.example/p?q=\(character)", "https://h.example/p#f\(character)"]
            where URLParts.isCanonicalHTTP(url) {
                #expect(URLParts.libcurlReadsAsHTTP(url), "\(url)")
            }
        }
        for byte in [UInt8(0x20), 0x7F, 0x0A, 0x00] {
            #expect(!URLParts.isCanonicalHTTP("https://h.example/p" + String(UnicodeScalar(byte))))
        }
    }

    @Test func whatTheFastPathLeavesTheParserStillDecides() {
        #expect(ServiceURL.href("HTTP://EXAMPLE.COM") == "http://example.com/")
        #expect(ServiceURL.href("http://user:pw@example.com/") == "http://user:pw@example.com/")
        #expect(ServiceURL.href("ftp://example.com/") == nil)
        #expect(ServiceURL.href("http://exa mple.com/") == nil)
    }

    /// Copies of one request are identical without a look at their bytes; any change to a copy makes it another
    /// request, and a request made again with the same bytes is still identical (by its bytes).
    @Test func requestIdentityFollowsItsBytes() {
        func make() -> HTTPRequest {
            HTTPRequest(method: .post, url: "https://h.example/v1/offers?k=1", headers: [("Accept", "application/json")],
                        body: Array("{}".utf8), timeoutMilliseconds: 1000)
        }
        let made = make()
        var copy = made
        #expect(copy.isByteIdentical(to: made))
        copy.headers.append(("X-Extra", "1"))
        #expect(!copy.isByteIdentical(to: made))
        copy.headers.removeLast()
        #expect(copy.isByteIdentical(to: made))  // the same bytes again
        for change in [{ (r: inout HTTPRequest) in r.url += "2" }, { $0.body = Array("{ }".utf8) }, { $0.method = .get },
                       { $0.timeoutMilliseconds = 2000 }, { $0.followRedirects = false }, { $0.maximumBodyBytes = 1 },
                       { $0.keepsResponseHeaders = false }, { $0.headers[0].value = "text/plain" }] {
            var changed = made
            change(&changed)
            #expect(!changed.isByteIdentical(to: made))
        }
        #expect(make().isByteIdentical(to: made))
    }

    @Test func reusesOneConnectionForSequentialRequests() throws {
        for _ in 0..<5 { #expect((try? send(get("/nothing")).get().status) == 404) }
        let ports = Set(try sandbox.requests().compactMap { $0["client_port"] as? Int })
        #expect(ports.count == 1)
    }

    /// A finished request's libcurl handle serves the next one reset: a GET after a POST sends no body, no
    /// POST headers and no redirect rule of the earlier request.
    @Test func aReusedHandleCarriesNothingOfTheRequestBefore() throws {
        var post = HTTPRequest(method: .post, url: sandbox.url + "/first", timeoutMilliseconds: 30_000)
        post.headers = [("X-First", "1"), ("Content-Type", "application/json")]
        post.body = Array(#"{"a":1}"#.utf8)
        post.followRedirects = false
        _ = send(post)
        try sandbox.addFault(#"{"path": "/second", "redirect": "/landing", "times": 1}"#)
        #expect((try? send(get("/second")).get().status) == 404)  // followed: the POST's "no redirects" is gone
        let requests = try sandbox.requests()
        #expect(requests.map { $0["method"] as? String } == ["POST", "GET", "GET"])
        let second = requests[1]["headers"] as? [String: String] ?? [:]
        #expect(second["x-first"] == nil && second["content-type"] == nil && second["content-length"] == nil)
        #expect((requests[1]["body"] as? String ?? "").isEmpty)
    }

    /// A request equal to the last one on a handle goes out on its options as they are, the same every time,
    /// and a different one after them carries nothing of theirs; a failure's message is the failure's own.
    @Test func anEqualRequestIsSentAgainOnItsPreparedHandle() throws {
        var post = HTTPRequest(method: .post, url: sandbox.url + "/same?k=1", timeoutMilliseconds: 30_000)
        post.headers = [("X-Same", "yes"), ("Content-Type", "application/json")]
        post.body = Array(#"{"n":1}"#.utf8)
        for _ in 0..<3 { #expect((try? send(post).get().status) == 404) }
        #expect((try? send(get("/other")).get().status) == 404)
        #expect((try? send(post).get().status) == 404)
        let requests = try sandbox.requests()
        #expect(requests.map { $0["method"] as? String } == ["POST", "POST", "POST", "GET", "POST"])
        for index in [0, 1, 2, 4] {
            let headers = requests[index]["headers"] as? [String: String] ?? [:]
            #expect(headers["x-same"] == "yes" && headers["content-type"] == "application/json")
            #expect(requests[index]["body"] as? String == #"{"n":1}"#)
        }
        let other = requests[3]["headers"] as? [String: String] ?? [:]
        #expect(other["x-same"] == nil && (requests[3]["body"] as? String ?? "").isEmpty)
        // Equal as Swift compares text, not byte for byte: the second goes out with its own bytes.
        try sandbox.control("POST", "/_sandbox/reset")
        var composed = get("/form")
        composed.headers = [("X-Name", "caf\u{E9}")]
        var decomposed = composed
        decomposed.headers = [("X-Name", "cafe\u{301}")]
        #expect(composed == decomposed)
        _ = send(composed)
        _ = send(decomposed)
        let forms = try sandbox.requests().map { ($0["headers"] as? [String: String])?["x-name"] ?? "" }
        #expect(forms.count == 2 && !forms[0].utf8.elementsEqual(forms[1].utf8))
        // The same refused request twice: each failure says why, from its own transfer.
        let closed = HTTPRequest(method: .get, url: "http://127.0.0.1:1/x", timeoutMilliseconds: 30_000)
        for _ in 0..<2 {
            guard case .failure(.network(let detail)) = send(closed) else { Issue.record("connected to port 1"); continue }
            #expect(!detail.isEmpty)
        }
    }

    @Test func sendsNoAcceptHeaderUnlessAsked() throws {
        _ = send(get("/plain"))
        var withAccept = get("/json")
        withAccept.headers = [("Accept", "application/json")]
        _ = send(withAccept)
        let headers = try sandbox.requests().map { $0["headers"] as? [String: String] ?? [:] }
        #expect(headers[0]["accept"] == nil)
        #expect(headers[1]["accept"] == "application/json")
    }

    /// Every request offers the encodings docs/PROTOCOL.md names (`keepsNoHeaderFieldsWhenAskedNot` has a gzip answer
    /// decoded); a small POST asks for no 100-continue, and a large one goes out whole without waiting for it.
    @Test func offersGzipAndDeflateAndNeverWaitsForContinue() throws {
        _ = send(get("/plain"))
        var small = HTTPRequest(method: .post, url: sandbox.url + "/small", timeoutMilliseconds: 30_000)
        small.body = Array(#"{"a":1}"#.utf8)
        _ = send(small)
        var large = small
        large.body = Array(repeating: UInt8(ascii: "x"), count: 4096)
        _ = send(large)
        let requests = try sandbox.requests()
        let headers = requests.map { $0["headers"] as? [String: String] ?? [:] }
        #expect(headers.count == 3)
        for sent in headers {
            #expect(sent["accept-encoding"] == "gzip, deflate")
            #expect(sent["expect"] == nil)
        }
        #expect((requests[2]["body"] as? String)?.utf8.count == 4096)
    }

    @Test func followsRedirectsOnlyToHTTPAndAtMostFive() throws {
        try sandbox.addFault(#"{"path": "/hop", "redirect": "/landing", "times": 1}"#)
        #expect((try? send(get("/hop")).get().status) == 404)  // followed to /landing, which is not an endpoint
        #expect(try sandbox.requests().map { $0["path"] as? String } == ["/hop", "/landing"])

        try sandbox.addFault(#"{"path": "/to-file", "redirect": "file:///etc/passwd"}"#)
        guard case .failure(.network(let detail)) = send(get("/to-file")) else { Issue.record("file:// was followed"); return }
        #expect(detail.lowercased().contains("protocol"))

        try sandbox.addFault(#"{"path": "/loop", "redirect": "/loop"}"#)
        guard case .failure(.network(let loop)) = send(get("/loop")) else { Issue.record("a redirect loop ended well"); return }
        #expect(loop.contains("redirect"))
    }

    @Test func beaconsDoNotFollowRedirects() throws {
        try sandbox.addFault(#"{"path": "/pixel", "redirect": "/elsewhere"}"#)
        var request = get("/pixel")
        request.followRedirects = false
        #expect((try? send(request).get().status) == 302)
    }

    @Test(arguments: ["file:///etc/passwd", "gopher://127.0.0.1/", "javascript:alert(1)", "ftp://127.0.0.1/x"])
    func refusesNonHTTPURLs(url: String) {
        let request = HTTPRequest(method: .get, url: url, timeoutMilliseconds: 1000)
        guard case .failure(.refused) = send(request) else { Issue.record("\(url) was not refused"); return }
    }

    /// Whoever supplies a header (a host string, a server's token), CR, LF or NUL never reach the wire.
    @Test(arguments: [
        ("User-Agent", "Mozilla\r\nX-Injected: yes"), ("User-Agent", "a\nb"), ("Authorization", "Bearer t\u{0}x"),
        ("X-Bad Name", "v"), ("X-Bad\r\nName", "v"), ("", "v"),
    ])
    func refusesHeadersThatCouldSplit(name: String, value: String) throws {
        var request = get("/nothing")
        request.headers = [(name: name, value: value)]
        guard case .failure(.refused(let reason)) = send(request) else { Issue.record("the header was sent"); return }
        #expect(!reason.contains("\r") && !reason.contains("\n"))
        #expect(try sandbox.requests().isEmpty)
    }

    @Test func neverRedirectsFromHTTPSDownToHTTP() {
        #expect(HTTPRequestRules.isHTTPS("HTTPS://host/x"))
        #expect(!HTTPRequestRules.isHTTPS("http://host/x"))
        #expect(HTTPRequestRules.redirectProtocols(for: "https://host/x") == "https")
        #expect(HTTPRequestRules.redirectProtocols(for: "http://host/x") == "http,https")
    }

    @Test func verifiesTLSCertificates() throws {
        let tls = try SandboxProcess(extraArguments: ["--tls"])
        defer { tls.stop() }
        #expect(tls.url.hasPrefix("https://"))
        let outcome = send(HTTPRequest(method: .get, url: tls.url + "/x", timeoutMilliseconds: 30_000))
        guard case .failure(.network(let detail)) = outcome else { Issue.record("a self-signed certificate was accepted"); return }
        #expect(detail.lowercased().contains("certificate"))
    }

    @Test func capsTheBodySize() throws {
        try sandbox.addFault(#"{"oversize": true}"#)
        #expect(send(get("/big")) == .failure(.tooLarge(HTTPRequest.defaultMaximumBodyBytes)))
        var small = get("/small")
        small.maximumBodyBytes = 10
        try sandbox.control("POST", "/_sandbox/reset")
        #expect(send(small) == .failure(.tooLarge(10)))  // the 404's JSON body is longer than 10 bytes
    }

    /// A request that keeps no header field (Moments) gets none, and the same body, plain or compressed; the
    /// size cap holds without the header callback too.
    @Test func keepsNoHeaderFieldsWhenAskedNot() throws {
        let offers = HTTPRequest(method: .post, url: sandbox.url + "/v1/offers.json?api_key=k",
                                 headers: [("Content-Type", "application/json")], body: Array("{}".utf8), timeoutMilliseconds: 30_000)
        let kept = try send(offers).get()
        var bare = offers
        bare.keepsResponseHeaders = false
        let plain = try send(bare).get()
        #expect(kept.headers["content-type"] != nil)
        #expect(plain.headers.isEmpty)
        #expect(plain.status == kept.status)
        #expect(plain.body == kept.body && !plain.body.isEmpty)
        try sandbox.addFault(#"{"gzip": true}"#)
        let compressed = try send(bare).get()
        #expect(compressed.headers.isEmpty)
        #expect(compressed.body == kept.body)
        try sandbox.control("POST", "/_sandbox/reset")
        try sandbox.addFault(#"{"oversize": true}"#)
        var big = get("/big")
        big.keepsResponseHeaders = false
        #expect(send(big) == .failure(.tooLarge(HTTPRequest.defaultMaximumBodyBytes)))
    }

    @Test func shutdownCompletesEveryRequestWithCancelled() throws {
        try sandbox.addFault(#"{"hang": true}"#)
        let local = try CurlTransport()
        let outcomes = ConditionLock<[Result<HTTPResponse, TransportError>]>([])
        for _ in 0..<20 {
            local.send(get("/hang")) { outcome in outcomes.withLock { $0.append(outcome) } }
        }
        local.shutdown()
        let all = outcomes.withLock { $0 }
        #expect(all.count == 20)
        #expect(all.allSatisfy { $0 == .failure(.cancelled) })
        // After shutdown a request completes at once, still exactly once.
        let late = send(get("/late"), via: local)
        #expect(late == .failure(.cancelled))
    }
}
