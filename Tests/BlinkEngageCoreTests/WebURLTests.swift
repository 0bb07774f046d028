import Testing
@testable import BlinkEngageCore

/// How answers' URLs read (WebURL behind the canonical fast path): the `href` a browser would open, case by case,
/// and the forms refused on purpose. The whole WPT suite runs in `WPTURLTests` below and, through the C API, in
/// bindings/python/tests/test_wpt_urls.py.
@Suite struct WebURLTests {
    @Test(arguments: [
        // What ad-tech click URLs carry.
        ("https://track.example.com/c?o=1&macro={cb}&list=[A]|x,y;z", "https://track.example.com/c?o=1&macro={cb}&list=[A]|x,y;z"),
        ("https://track.example.com/c?x=a b", "https://track.example.com/c?x=a%20b"),
        ("https://track.example.com/path with spaces/c", "https://track.example.com/path%20with%20spaces/c"),
        ("http://www.google.com/foo?bar=baz# »", "http://www.google.com/foo?bar=baz#%20%C2%BB"),
        ("https://bücher.example/angebot?x=1", "https://xn--bcher-kva.example/angebot?x=1"),
        ("https://例え.テスト/パス?クエリ=値", "https://xn--r8jz45g.xn--zckzah/%E3%83%91%E3%82%B9?%E3%82%AF%E3%82%A8%E3%83%AA=%E5%80%A4"),
        ("https://faß.ExAmPlE/", "https://xn--fa-hia.example/"), ("http://é@é", "http://%C3%A9@xn--9ca/"),
        ("https://%e2%98%83", nil), ("https://a%C2%ADb/", "https://ab/"),
        ("http:/example.com/", "http://example.com/"), ("https:example.com/", "https://example.com/"),
        ("http:a:b@www.example.com", "http://a:b@www.example.com/"), ("http::b@www.example.com", "http://:b@www.example.com/"),
        ("http://a.b.c.xn--pokxncvks", "http://a.b.c.xn--pokxncvks/"), ("http://a.b.c.XN--pokxncvks", "http://a.b.c.xn--pokxncvks/"),
        // The serialiser's rewrites.
        ("HTTPS://Example.COM", "https://example.com/"), ("http://example.com:80/", "http://example.com/"),
        ("http://example.com:0080/x", "http://example.com/x"), ("http://example.com:/", "http://example.com/"),
        ("http://a/b/../c/./d", "http://a/c/d"), ("http://a/b/%2E%2e/c", "http://a/c"), ("http://a/..", "http://a/"),
        ("http://a/\"<>`{}?\"<>'`{}#\"<>'`{}", "http://a/%22%3C%3E%60%7B%7D?%22%3C%3E%27`{}#%22%3C%3E'%60{}"),
        ("http://a@b@c/", "http://a%40b@c/"), ("  http://a/  ", "http://a/"), ("http://a/\u{7F}", "http://a/%7F"),
        // IPv4: "ends in a number".
        ("http://127.0.0.1/", "http://127.0.0.1/"), ("http://0x7f.1/", "http://127.0.0.1/"), ("http://4294967295/", "http://255.255.255.255/"),
        ("http://4294967296/", nil), ("http://1.2.3.4.5/", nil), ("http://256.0.0.1/", nil), ("http://1.2.3.08/", nil),
        ("http://0x/", "http://0.0.0.0/"), ("http://foo.09/", nil), ("http://foo.0x4/", nil), ("http://09.example/", "http://09.example/"),
        ("http://1.2.3.4./", "http://1.2.3.4/"),
        // IPv6.
        ("http://[::1]:8080/", "http://[::1]:8080/"), ("http://[0:0:0:0:0:0:0:1]/", "http://[::1]/"),
        ("http://[1:0:0:2:0:0:0:3]/", "http://[1:0:0:2::3]/"), ("http://[::ffff:192.168.0.1]/", "http://[::ffff:c0a8:1]/"),
        ("http://[1:2:3:4:5:6:7:8:9]/", nil), ("http://[::1::]/", nil), ("http://[::ffff:192.168.0.01]/", nil),
        ("http://[::1.2.3]/", nil), ("http://[::1]x/", nil), ("http://[::1/", nil), ("http://[:1]/", nil),
        // Refused on purpose, though the standard reads them.
        ("http://example.com/\t", nil), ("http://exa\nmple.com/", nil), ("http://evil.example\\@good.example/", nil),
        ("http://a/b?c\\d", nil), ("ftp://example.com/", nil), ("javascript:alert(1)//http://x", nil), ("/relative", nil),
        // Refused by the standard.
        ("http://exa mple.com/", nil), ("http://exa<mple.com/", nil), ("http://a|b/", nil), ("http://a^b/", nil),
        ("http://user@/", nil), ("http:///", nil), ("http://", nil), ("https://", nil), ("http://a:65536/", nil),
        ("http://a:1a/", nil), ("http://%41.com", "http://a.com/"), ("http://a%2eb/", "http://a.b/"), ("http://a%/", nil),
    ] as [(String, String?)])
    func hrefs(url: String, href: String?) {
        #expect(ServiceURL.href(url) == href, "\(url)")
    }

    /// A URL the library requests itself (a beacon, an image) is one libcurl reads too: browsers open hosts of
    /// sub-delimiters that libcurl refuses, which are handed to the host but never requested.
    @Test func requestedURLsAreLibcurlsToo() {
        #expect(ServiceURL.href("http://a,b/") == "http://a,b/")
        #expect(ServiceURL.requestableHref("http://a,b/") == nil)
        #expect(ServiceURL.requestableHref("HTTP://Bücher.example/a b") == "http://xn--bcher-kva.example/a%20b")
        #expect(ServiceURL.requestableHref("https://track.example.com/p?cb={cbuster}") == "https://track.example.com/p?cb={cbuster}")
    }

    /// Whatever the canonical fast path accepts, the parser writes back unchanged: the fast path only saves work.
    @Test(arguments: ["https://track.example.com/sdk/offer_click?o_id=4001", "http://a-b.example:8080/x%20y#f",
                      "https://example.com/", "http://a/x?cb={cbuster}|^", "http://10.0.0.1:9/x",
                      "http://[2001:db8::1]:8080/x", "http://[::]/"])
    func theFastPathIsASubsetOfTheParser(url: String) {
        #expect(URLParts.isCanonicalHTTP(url))
        #expect(Array(url.utf8).withUnsafeBufferPointer { WebURL.read($0) } == .asGiven)
    }
}

/// WHATWG's own test data (web-platform-tests' urltestdata.json, read from ../shared/fixtures/wpt): every entry whose
/// meaning does not depend on a base. No invalid one is accepted; every valid http(s) one reads as the suite's
/// `href` unless it is of a kind refused on purpose.
@Suite struct WPTURLTests {
    @Test func everyEntryReadsAsTheSuiteSays() throws {
        guard let entries = try WPTURLData.entries() else {
            print("WPT URLs: ../shared/fixtures/wpt/urltestdata.json is absent; skipped")
            return
        }
        var counted = 0, accepted = 0, invalidAccepted: [String] = [], mismatched: [String] = []
        var refused: [String: Int] = [:], unexplained: [String] = []
        for entry in entries where entry.base == nil || entry.isAbsoluteHTTP {
            counted += 1
            let href = ServiceURL.href(entry.input)
            guard entry.isValidHTTP else {
                if href != nil { invalidAccepted.append(entry.input) }
                continue
            }
            if let href {
                accepted += 1
                if href != entry.href { mismatched.append("\(entry.input) -> \(href), not \(entry.href ?? "")") }
            } else if let reason = WPTURLData.refusalReason(entry.input, hostname: entry.hostname) {
                refused[reason, default: 0] += 1
            } else {
                unexplained.append(entry.input)
            }
        }
        print("WPT URLs: \(counted) counted, \(accepted) valid accepted, \(refused.values.reduce(0, +)) valid refused, "
              + "\(invalidAccepted.count) invalid accepted, \(mismatched.count) href mismatches")
        for (reason, count) in refused.sorted(by: { $0.value > $1.value }) { print("  \(count) valid refused: \(reason)") }
        #expect(invalidAccepted == [])
        #expect(mismatched == [])
        #expect(unexplained == [], "valid, refused, and of no kind SECURITY.md lists")
    }
}
