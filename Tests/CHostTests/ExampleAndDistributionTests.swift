import Foundation
import TestSupport
import XCTest

/// The examples a newcomer copies from, run as a host would run them, and the release library as it ships.
final class ExampleAndDistributionTests: XCTestCase {
    private var workDirectory: URL!

    override func setUpWithError() throws {
        workDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("be-example-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: workDirectory)
    }

    /// Compiles an example with the strict flags against the library in `libraryDirectory`.
    private func buildExample(_ name: String, libraryDirectory: String, includeDirectory: String) throws -> URL {
        let binary = workDirectory.appendingPathComponent(name)
        let build = try CHostTests.compile(
            ProjectPaths.root.appendingPathComponent("examples-c/\(name).c"), to: binary, libraries: ["-lpthread"],
            libraryDirectory: libraryDirectory, includeDirectory: includeDirectory)
        XCTAssertEqual(build.status, 0, build.output)
        return binary
    }

    /// Runs an example under valgrind against its own sandbox: no errors, nothing definitely lost.
    private func runUnderValgrind(_ name: String, _ arguments: (SandboxProcess) -> [String]) throws -> String {
        let binary = try buildExample(
            name, libraryDirectory: ProjectPaths.libraryDirectory.path,
            includeDirectory: ProjectPaths.root.appendingPathComponent("include").path)
        let sandbox = try SandboxProcess()
        defer { sandbox.stop() }
        let run = try Command.run("valgrind", [
            "--error-exitcode=99", "--leak-check=full", "--errors-for-leak-kinds=definite", "--show-leak-kinds=definite",
            binary.path,
        ] + arguments(sandbox))
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertTrue(run.output.contains("ERROR SUMMARY: 0 errors"), run.output)
        XCTAssertTrue(run.output.contains("definitely lost: 0 bytes") || run.output.contains("no leaks are possible"), run.output)
        return run.output
    }

    func testMomentsExampleRunsCleanUnderValgrind() throws {
        let output = try runUnderValgrind("moments_offers") { [$0.url + "/native/v4", "demo-key", "checkout"] }
        XCTAssertTrue(output.contains("3 offers"), output)
        XCTAssertTrue(output.contains("offerText.buttonYes.background   #1A73E8"), output)
    }

    func testOfferFeedExampleRunsCleanUnderValgrind() throws {
        let output = try runUnderValgrind("offer_feed") { [$0.url, "demo-key", "valgrind-user"] }
        XCTAssertTrue(output.contains("2 group(s)"), output)
        XCTAssertTrue(output.contains("accepted: open https://track.example.com/"), output)
        XCTAssertTrue(output.contains("closed    finished"), output)
        XCTAssertTrue(output.contains("tracking: delivered"), output)
    }

    func testTerminalOfferUnitFromAScriptOfKeys() throws {
        let binary = try buildExample(
            "offer_unit", libraryDirectory: ProjectPaths.libraryDirectory.path,
            includeDirectory: ProjectPaths.root.appendingPathComponent("include").path)
        let sandbox = try SandboxProcess()
        defer { sandbox.stop() }
        let run = try Command.run(binary.path, [sandbox.url + "/native/v4", "--keys", "npxdac", "--plain"])
        XCTAssertEqual(run.status, 0, run.output)
        let fired = run.output.split(separator: "\n").filter { $0.hasPrefix("beacons: ") }
        XCTAssertEqual(fired, [
            "beacons: 2 fired (impression)",                   // 4001: pixel and adv_pixel_url
            "beacons: 1 fired (impression)",                   // n: 4002
            "beacons: 2 fired (impression)",                   // p: 4001 again
            "beacons: 2 fired (no_thanks_click, impression)",  // d: on 4001, then 4002 shows
            "beacons: 1 fired (impression)",                   // a: on 4002, then 4003 shows
            "beacons: 1 fired (close)",                        // c: on 4003
        ], run.output)
        XCTAssertTrue(run.output.contains("open: https://track.example.com/sdk/offer_click?o_id=4002"), run.output)
        XCTAssertTrue(run.output.contains("|   [a] Claim offer    [d] No, thanks                    |"), run.output)
        XCTAssertTrue(run.output.contains("(the unit is closed)"), run.output)
        XCTAssertTrue(run.output.contains("tracking: 9 beacons delivered"), run.output)
        XCTAssertFalse(run.output.contains("\u{1B}["), "plain output has no escape sequences")
        XCTAssertFalse(run.output.contains("[cached]"), "a plain fetch is not drawn from a prefetch")
        let beacons = try sandbox.control("GET", "/_sandbox/beacons")
        XCTAssertTrue(beacons.contains("\"total\": 9"), beacons)
        let prefetched = try Command.run(binary.path, [sandbox.url + "/native/v4", "--keys", "q", "--plain", "--prefetch"])
        XCTAssertEqual(prefetched.status, 0, prefetched.output)
        XCTAssertTrue(prefetched.output.hasPrefix("[cached] drawn from the prefetched answer"), prefetched.output)

        let colored = try Command.run(binary.path, [sandbox.url + "/native/v4", "--keys", "c", "--color"])
        XCTAssertEqual(colored.status, 0, colored.output)
        XCTAssertTrue(colored.output.contains("\u{1B}[48;2;26;115;232m [a] Claim offer "), "buttonYes.background #1A73E8")
        XCTAssertTrue(colored.output.contains("\u{1B}[38;2;255;255;255m\u{1B}[48;2;11;25;55m Thanks for your order"), "header colours")
    }

    func testCxxExampleWithRAIIWrappers() throws {
        let binary = workDirectory.appendingPathComponent("offers-cpp")
        let library = ProjectPaths.libraryDirectory.path
        let build = try Command.run("g++", [
            "-std=c++17", "-Wall", "-Wextra", "-Werror", "-pedantic",
            "-I", ProjectPaths.root.appendingPathComponent("include").path,
            ProjectPaths.root.appendingPathComponent("examples-cpp/offers.cpp").path, "-o", binary.path,
            "-L", library, "-lblinkengage", "-lpthread", "-Wl,-rpath,\(library)",
        ])
        XCTAssertEqual(build.status, 0, build.output)
        let sandbox = try SandboxProcess()
        defer { sandbox.stop() }
        let run = try Command.run(binary.path, [sandbox.url])
        XCTAssertEqual(run.status, 0, run.output)
        for line in ["moments: 3 offers, button colour #1A73E8", "unit shows 4003", "feed f_1: 2 groups", "reported view_all for g_entertainment"] {
            XCTAssertTrue(run.output.contains(line), "missing \(line):\n\(run.output)")
        }
    }

    private func distDirectory() throws -> URL {
        guard let path = ProcessInfo.processInfo.environment["BE_DIST_DIR"], !path.isEmpty else {
            throw XCTSkip("BE_DIST_DIR is not set: run `make test`, which builds the release library first")
        }
        return URL(fileURLWithPath: path)
    }

    func testReleaseLibraryExportsOnlyThePublicAPIUnderItsSoname() throws {
        let library = try distDirectory().appendingPathComponent("lib/libblinkengage.so.1")
        let nm = try Command.run("nm", ["-D", "--defined-only", library.path])
        let globals = nm.output.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ")
            guard fields.count == 3, fields[1].count == 1, fields[1].uppercased() == fields[1] else { return nil }
            return String(fields[2])
        }
        XCTAssertEqual(Set(globals), try HeaderExportTests.declaredFunctions())
        let dynamic = try Command.run("readelf", ["-d", library.path])
        XCTAssertTrue(dynamic.output.contains("Library soname: [libblinkengage.so.1]"), dynamic.output)
    }

    /// The release library carries the Swift standard library and nothing else of the toolchain: stripped, at
    /// most 7.3 MB (7,300,000 bytes; 7.21 MB with the storage formats, salvage and the offer wall, 7.11 MB before
    /// them), with no FoundationEssentials, Dispatch or string-processing code inside, and
    /// nothing of the Swift surface (the module BlinkEngage, mangled `11BlinkEngage`): C hosts pay for none of it.
    func testReleaseLibraryIsLean() throws {
        let library = try distDirectory().appendingPathComponent("lib/libblinkengage.so.1")
        let stripped = FileManager.default.temporaryDirectory.appendingPathComponent("be-stripped-\(getpid()).so")
        defer { try? FileManager.default.removeItem(at: stripped) }
        XCTAssertEqual(try Command.run("strip", ["-o", stripped.path, library.path]).status, 0)
        let size = try FileManager.default.attributesOfItem(atPath: stripped.path)[.size] as? Int ?? Int.max
        XCTAssertLessThanOrEqual(size, 7_300_000, "stripped release library is \(size) bytes")
        let symbols = try Command.run("nm", [library.path]).output
        for module in ["20FoundationEssentials", "8Dispatch", "17_StringProcessing", "11BlinkEngage"] {
            XCTAssertFalse(symbols.contains(module), "the release library links \(module)")
        }
        // The C shims' static functions and state exist once: a copy per object file meant ten fork gates (ten
        // states and ten pairs of fork handlers) and six copies of each byte scan.
        for name in ["be_fork_gate_get.once", "be_fork_gate_prepare", "be_url_is_canonical_http", "be_json_unescape"] {
            let copies = symbols.split(separator: "\n").filter { $0.hasSuffix(" " + name) }.count
            XCTAssertLessThanOrEqual(copies, 1, "\(copies) copies of \(name) in the release library")
        }
    }

    /// README names exactly the libraries `readelf -d` lists as NEEDED (the loader aside), and the newest glibc
    /// symbol version the library asks for.
    func testReadmeNamesWhatTheReleaseLibraryNeeds() throws {
        let library = try distDirectory().appendingPathComponent("lib/libblinkengage.so.1")
        let dynamic = try Command.run("readelf", ["-d", library.path]).output
        let needed = Set(matches(of: #"\(NEEDED\)\s+Shared library: \[([^\]]+)\]"#, in: dynamic)).subtracting(["ld-linux-x86-64.so.2"])
        let readme = try String(contentsOf: ProjectPaths.root.appendingPathComponent("README.md"), encoding: .utf8)
        guard let line = readme.split(separator: "\n").first(where: { $0.hasPrefix("| `make dist` |") }) else {
            return XCTFail("README has no make dist row")
        }
        XCTAssertEqual(Set(matches(of: #"`(lib[a-z0-9_+]+\.so\.[0-9]+)`"#, in: String(line))), needed)
        let symbols = try Command.run("objdump", ["-T", library.path]).output
        let glibc = matches(of: #"GLIBC_([0-9]+\.[0-9]+)"#, in: symbols)
            .max { $0.split(separator: ".").map { Int($0)! }.lexicographicallyPrecedes($1.split(separator: ".").map { Int($0)! }) }
        XCTAssertNotNil(glibc)
        XCTAssertTrue(line.contains("glibc \(glibc ?? "?") or later"), "README should say glibc \(glibc ?? "?"): \(line)")
    }

    /// One version everywhere: the header's macros, be_version() (through the command), the engine's
    /// LibraryVersion, the Python package, both Rust crates, the Unity package, blinkengage.pc, the CMake package
    /// and the newest CHANGELOG entry.
    func testOneVersionEverywhere() throws {
        let root = ProjectPaths.root
        func read(_ path: String) throws -> String { try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) }
        let header = try read("include/blinkengage.h")
        let version = ["MAJOR", "MINOR", "PATCH"].map { matches(of: "#define BE_VERSION_\($0) ([0-9]+)", in: header).first ?? "?" }
            .joined(separator: ".")
        let swift = try read("Sources/BlinkEngageCore/Model/LibraryVersion.swift")
        let found: [(String, String?)] = [
            ("LibraryVersion.swift", ["major", "minor", "patch"].map { matches(of: "static let \($0) = ([0-9]+)", in: swift).first ?? "?" }
                .joined(separator: ".")),
            ("pyproject.toml", matches(of: #"(?m)^version = "([^"]+)""#, in: try read("bindings/python/pyproject.toml")).first),
            ("blinkengage Cargo.toml", matches(of: #"(?m)^version = "([^"]+)""#, in: try read("bindings/rust/blinkengage/Cargo.toml")).first),
            ("blinkengage-sys Cargo.toml", matches(of: #"(?m)^version = "([^"]+)""#, in: try read("bindings/rust/blinkengage-sys/Cargo.toml")).first),
            ("package.json", matches(of: #""version": "([^"]+)""#, in: try read("bindings/csharp/package.json")).first),
            ("CHANGELOG.md", matches(of: #"(?m)^## ([0-9]+\.[0-9]+\.[0-9]+)"#, in: try read("CHANGELOG.md")).first),
        ]
        for (source, value) in found { XCTAssertEqual(value, version, source) }
        let dist = try distDirectory()
        let pc = try String(contentsOf: dist.appendingPathComponent("lib/pkgconfig/blinkengage.pc"), encoding: .utf8)
        XCTAssertEqual(matches(of: #"(?m)^Version: (\S+)"#, in: pc).first, version, "blinkengage.pc")
        let cmake = try String(contentsOf: dist.appendingPathComponent("lib/cmake/BlinkEngage/BlinkEngageConfigVersion.cmake"), encoding: .utf8)
        XCTAssertEqual(matches(of: #"set\(PACKAGE_VERSION "([^"]+)"\)"#, in: cmake).first, version, "CMake")
        let cli = try Command.run(dist.appendingPathComponent("bin/blinkengage").path, ["--version"])
        XCTAssertEqual(cli.output.trimmingCharacters(in: .whitespacesAndNewlines), "blinkengage \(version)", "be_version()")
    }

    private func matches(of pattern: String, in text: String) -> [String] {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    func testReleaseLibraryLoadsInACHostWithoutTheToolchain() throws {
        let dist = try distDirectory()
        let library = dist.appendingPathComponent("lib/libblinkengage.so.1")
        // Found through pkg-config, as a host's build would find it.
        let flags = try Command.run("pkg-config", ["--cflags", "--libs", "blinkengage"],
                                    environment: ["PKG_CONFIG_PATH": dist.appendingPathComponent("lib/pkgconfig").path])
        XCTAssertEqual(flags.status, 0, flags.output)
        XCTAssertTrue(flags.output.contains("-lblinkengage"), flags.output)

        let toolchain = try Command.run("sh", ["-c", "dirname \"$(dirname \"$(readlink -f \"$(command -v swift)\")\")\""])
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
        let ldd = try Command.run("ldd", [library.path])
        XCTAssertEqual(ldd.status, 0, ldd.output)
        XCTAssertFalse(ldd.output.contains(toolchain), "the release library needs the toolchain:\n\(ldd.output)")
        XCTAssertFalse(ldd.output.contains("swift"), ldd.output)
        XCTAssertFalse(ldd.output.contains("not found"), ldd.output)

        let binary = try buildExample(
            "moments_offers", libraryDirectory: dist.appendingPathComponent("lib").path,
            includeDirectory: dist.appendingPathComponent("include").path)
        let sandbox = try SandboxProcess()
        defer { sandbox.stop() }
        // env -i: no PATH, no LD_LIBRARY_PATH, nothing of the toolchain's environment.
        let run = try Command.run("/usr/bin/env", ["-i", binary.path, sandbox.url + "/native/v4", "demo-key", "checkout"])
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertTrue(run.output.contains("3 offers"), run.output)
    }
}
