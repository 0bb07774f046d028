import Testing
@testable import BlinkEngageCore

/// The URL check of answers' URLs (WebURL, behind the plain fast path), case by case: what WHATWG's URL standard
/// accepts or refuses, and the forms refused on purpose. The whole WPT suite runs through the C API in
/// bindings/python/tests/test_wpt_urls.py.
@Suite struct WebURLTests {
    @Test(arguments: [
        // Plain URLs and what real ad-tech URLs carry.
        ("https://track.example.com/c?o=1&macro={cb}&list=[A]|x,y;z", true), ("HTTPS://Example.COM/", true),
        ("http://a/é?ü#ß", true), ("http://user:pass@example.com/", true), ("http://a..b/", true), ("http://a./", true),
        ("http://under_score.example/", true), ("http://example.com:/", true), ("http://example.com:0080/", true),
        ("http://example.com:65536/", false), ("http://example.com:1a/", false), ("http://example.com:-1/", false),
        // IPv4: "ends in a number".
        ("http://127.0.0.1/", true), ("http://0x7f.1/", true), ("http://4294967295/", true), ("http://4294967296/", false),
        ("http://1.2.3.4.5/", false), ("http://256.0.0.1/", false), ("http://1.2.3.08/", false), ("http://0x/", true),
        ("http://foo.09/", false), ("http://foo.0x4/", false), ("http://09.example/", true), ("http://1.2.3.4./", true),
        // IPv6.
        ("http://[::1]/", true), ("http://[::1]:8080/", true), ("http://[1:2:3:4:5:6:7:8]/", true), ("http://[1:2:3:4:5:6:7::]/", true),
        ("http://[::ffff:192.168.0.1]/", true), ("http://[1:2:3:4:5:6:7:8:9]/", false), ("http://[::1::]/", false),
        ("http://[::ffff:192.168.0.01]/", false), ("http://[::1.2.3]/", false), ("http://[1:2:3:4:5:6:7:1.2.3.4]/", false),
        ("http://[::1]x/", false), ("http://[::1/", false), ("http://[:1]/", false), ("http://[12345::]/", false),
        // Punycode.
        ("http://xn--mnchen-3ya.de/", true), ("http://xn--fsq.example/", true), ("http://xn--a.example/", false),
        ("http://xn--abc-.example/", false), ("http://xn--pokxncvks/", false), ("http://xn--4gbrim.example/", false),
        // Refused on purpose, though the standard reads them.
        ("http://example.com/a b", false), ("http://example.com/\t", false), (" http://example.com/", false),
        ("http:/example.com/", false), ("http:example.com/", false), ("http:///example.com/", false),
        ("http://a@b@c/", false), ("http://evil.example\\@good.example/", false), ("http://%65xample.com/", false),
        ("http://münchen.de/", false),
        // Refused by the standard.
        ("http://exa mple.com/", false), ("http://exa<mple.com/", false), ("http://a|b/", false), ("http://a^b/", false),
        ("http://user@/", false), ("http:///", false), ("javascript:alert(1)//http://x", false), ("ftp://example.com/", false),
        ("http://", false), ("https://", false),
    ])
    func webURLs(url: String, accepted: Bool) {
        #expect(ServiceURL.isAbsoluteHTTP(url) == accepted, "\(url)")
    }

    /// Whatever the plain fast path accepts, the full check accepts: the fast path only saves the work.
    @Test(arguments: ["https://track.example.com/sdk/offer_click?o_id=4001", "http://a-b.example:8080/x%20y#f",
                      "https://example.com", "http://a/{x}?cb={cbuster}|\\^`\"<>"])
    func thePlainPathIsASubsetOfTheFullCheck(url: String) {
        #expect(URLParts.isPlainHTTP(url))
        var text = url
        #expect(text.withUTF8 { WebURL.isOpenableHTTP($0) })
    }

    /// RFC 3492's own sample strings decode to their code points.
    @Test(arguments: [("egbpdaj6bu4bxfgehfvwxn", "\u{0644}\u{064A}\u{0647}\u{0645}\u{0627}\u{0628}\u{062A}\u{0643}\u{0644}\u{0645}\u{0648}\u{0634}\u{0639}\u{0631}\u{0628}\u{064A}\u{061F}"),
                      ("ihqwcrb4cv8a8dqg056pqjye", "\u{4ED6}\u{4EEC}\u{4E3A}\u{4EC0}\u{4E48}\u{4E0D}\u{8BF4}\u{4E2D}\u{6587}"),
                      ("mnchen-3ya", "münchen"), ("-> $1.00 <--", "-> $1.00 <-")])
    func punycodeDecodes(encoded: String, decoded: String) {
        let scalars = Array(encoded.utf8).withUnsafeBufferPointer { Punycode.decode($0) }
        #expect(scalars.map { String(String.UnicodeScalarView($0)) } == decoded)
    }
}

/// The origins a warm-up opens: of configured service URLs, which are checked http(s) with a host.
@Suite struct WarmUpOriginTests {
    @Test(arguments: [
        ("https://api.adspostx.com/native/v4", "https://api.adspostx.com"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
        ("HTTPS://User:Secret@API.Example.com:8443/base", "https://api.example.com:8443"),
        ("http://[::1]:9/x", "http://[::1]:9"),
    ])
    func originOfAServiceURL(url: String, origin: String) {
        #expect(SDK.origin(of: url) == origin)
    }

    @Test func noOriginWithoutAHost() {
        #expect(SDK.origin(of: "not a url") == nil)
        #expect(SDK.origin(of: "https:///path") == nil)
    }
}
