import Foundation
import TestSupport
import XCTest

/// Builds each C host test under Tests/CHostTests/c with the strict flags of the header's promise, links it
/// against the built library, and runs it against its own sandbox.
final class CHostTests: XCTestCase {
    static let strictFlags = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"]

    /// Compiles one C host (a test, an example, the command) with the strict flags and links it against the
    /// library in `libraryDirectory`, which it then finds at run time. `libraries` come after the library.
    static func compile(
        _ source: URL, to binary: URL, flags: [String] = [], libraries: [String] = [],
        libraryDirectory: String = ProjectPaths.libraryDirectory.path,
        includeDirectory: String = ProjectPaths.root.appendingPathComponent("include").path
    ) throws -> CommandResult {
        try Command.run("gcc", strictFlags + flags + [
            "-I", includeDirectory, source.path, "-o", binary.path, "-L", libraryDirectory, "-lblinkengage",
        ] + libraries + ["-Wl,-rpath,\(libraryDirectory)"])
    }

    private func buildAndRun(_ name: String, defines: [String] = [], environment: [String: String] = [:]) throws {
        XCTAssertTrue(FileManager.default.fileExists(atPath: ProjectPaths.library.path),
                      "\(ProjectPaths.library.path) is missing: build it first (make test does)")
        let source = ProjectPaths.root.appendingPathComponent("Tests/CHostTests/c/\(name).c")
        let binary = FileManager.default.temporaryDirectory.appendingPathComponent("be-\(name)-\(getpid())-\(defines.count)")
        defer { try? FileManager.default.removeItem(at: binary) }
        let build = try Self.compile(source, to: binary, flags: defines, libraries: ["-lcurl", "-lpthread"])
        XCTAssertEqual(build.status, 0, "compiling \(name).c failed:\n\(build.output)")
        guard build.status == 0 else { return }

        let sandbox = try SandboxProcess()
        defer { sandbox.stop() }
        let run = try Command.run(binary.path, [], environment: environment.merging(["BE_SANDBOX_URL": sandbox.url]) { $1 })
        XCTAssertEqual(run.status, 0, "\(name) failed:\n\(run.output)")
        XCTAssertTrue(run.output.contains(" passed, 0 failed"), "\(name) printed no summary:\n\(run.output)")
    }

    func testMomentsOffersThroughTheCAPI() throws { try buildAndRun("test_moments") }

    func testLifecycleCallbackModesAndShutdown() throws { try buildAndRun("test_lifecycle") }

    /// Its own curl_global_init records the threads that call it (Tests/CHostTests/c/test_start.c).
    func testTheStartLeavesLibcurlsInitialisationToTheSDKsThreads() throws { try buildAndRun("test_start") }

    func testOfferFeedLoadsAndErrors() throws { try buildAndRun("test_feed") }

    func testScreensBeaconsAndFeedEvents() throws { try buildAndRun("test_screens") }

    func testViewableImpressions() throws { try buildAndRun("test_viewability") }

    func testCrashLoopBreaker() throws { try buildAndRun("test_breaker") }

    func testFlightRecorder() throws { try buildAndRun("test_inspector") }

    func testZoneAds() throws { try buildAndRun("test_zone_ads") }

    /// Its own getaddrinfo counts and holds lookups (Tests/CHostTests/c/test_dns.c).
    func testEachNameIsLookedUpOnceAndAHungLookupHoldsBackNoOtherHost() throws { try buildAndRun("test_dns") }

    func testHostileServersAndCarelessHosts() throws { try buildAndRun("test_hostile") }

    func testTrackingIdleFullDiskAndIdentities() throws { try buildAndRun("test_tracking") }

    func testPrivacySignalsErasureFeedCacheAndPrefetch() throws { try buildAndRun("test_privacy") }

    func testImagesCachesAndCreatives() throws { try buildAndRun("test_images") }
    func testImageCacheFollowsRFC9111() throws { try buildAndRun("test_image_cache_rfc") }

    // The Moments, feed, events and beacon tests again, every request through a host transport of plain
    // sockets (Tests/CHostTests/c/host_transport.h); after each test no socket of the process is the SDK's.
    static let hostTransport = ["-DBE_TEST_HOST_TRANSPORT"]

    func testMomentsThroughAHostTransport() throws { try buildAndRun("test_moments", defines: Self.hostTransport) }

    func testFeedThroughAHostTransport() throws { try buildAndRun("test_feed", defines: Self.hostTransport) }

    func testBeaconsAndEventsThroughAHostTransport() throws { try buildAndRun("test_screens", defines: Self.hostTransport) }

    /// Proxies (HTTP and SOCKS5, sandbox/proxy.py) and a TLS sandbox signed by a CA made for the run.
    func testProxyCAFileAndPinnedKey() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("be-network-\(getpid())-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let tls = try SandboxProcess(extraArguments: ["--tls-ca", work.appendingPathComponent("ca").path])
        defer { tls.stop() }
        let log = work.appendingPathComponent("proxy.log")
        let proxy = try SandboxProcess(extraArguments: ["--log", log.path],
                                       script: ProjectPaths.root.appendingPathComponent("sandbox/proxy.py"))
        defer { proxy.stop() }
        let ports = proxy.firstLine.split(separator: " ").reduce(into: [String: String]()) { ports, field in
            let parts = field.split(separator: "=")
            if parts.count == 2 { ports[String(parts[0])] = String(parts[1]) }
        }
        let http = try XCTUnwrap(ports["http"], proxy.firstLine), socks = try XCTUnwrap(ports["socks"], proxy.firstLine)
        try buildAndRun("test_network", environment: [
            "BE_TLS_URL": tls.url, "BE_TLS_CA": work.appendingPathComponent("ca/ca.pem").path,
            "BE_TLS_PIN": work.appendingPathComponent("ca/pin.txt").path, "BE_HTTP_PROXY": "http://127.0.0.1:\(http)",
            "BE_SOCKS_PROXY": "socks5h://127.0.0.1:\(socks)", "BE_PROXY_LOG": log.path,
        ])
    }

    /// Round trips and connections as bench/latency_proxy.py counts them, in front of a TLS sandbox.
    func testAFetchAfterTheStartCostsOneRoundTrip() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("be-roundtrips-\(getpid())-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let tls = try SandboxProcess(extraArguments: ["--tls-ca", work.appendingPathComponent("ca").path])
        defer { tls.stop() }
        let tlsPort = try XCTUnwrap(tls.url.split(separator: ":").last.map(String.init))
        let proxy = try SandboxProcess(extraArguments: ["--target", "127.0.0.1:\(tlsPort)", "--delay-ms", "0"],
                                       script: ProjectPaths.root.appendingPathComponent("bench/latency_proxy.py"))
        defer { proxy.stop() }
        let fields = proxy.firstLine.split(separator: " ").map(String.init)  // listening on PORT control PORT URL
        XCTAssertEqual(fields.count, 6, proxy.firstLine)
        guard fields.count == 6 else { return }
        try buildAndRun("test_roundtrips", environment: [
            "BE_PROXY_URL": "https://127.0.0.1:\(fields[2])", "BE_PROXY_CONTROL": fields[4],
            "BE_TLS_CA": work.appendingPathComponent("ca/ca.pem").path,
        ])
    }

    /// 100 forks of a process whose SDK works on four threads; each child starts its own SDK and fetches
    /// (BE_FORKS=1000 for the long run).
    func testForkedChildrenStartTheirOwnSDK() throws { try buildAndRun("test_fork", environment: ["BE_FORKS": "100"]) }

    func testForkedChildrenStartTheirOwnSDKOverAHostTransport() throws {
        try buildAndRun("test_fork", defines: Self.hostTransport, environment: ["BE_FORKS": "100"])
    }

    func testHostTransportsThatMisbehave() throws { try buildAndRun("test_host_transport", defines: Self.hostTransport) }
}
