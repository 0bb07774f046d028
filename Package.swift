// swift-tools-version:6.0
import PackageDescription

// The library carries only the Swift standard library: not FoundationEssentials, not Dispatch, and not the
// string-processing module Swift imports implicitly (regex support the engine does not use, about 1 MB).
// `make dist` asks for it with BLINKENGAGE_LEAN_LIBRARY=1: the flag is an unsafe one, which a package that
// depends on this one by version would refuse, so other builds go without it.
let leanLibrary: [SwiftSetting] = Context.environment["BLINKENGAGE_LEAN_LIBRARY"] == "1"
    ? [.unsafeFlags(["-Xfrontend", "-disable-implicit-string-processing-module-import"])] : []

let package = Package(
    name: "BlinkEngage",
    products: [
        // The C library for C hosts (libblinkengage.so): the ABI over the engine, and nothing of the Swift surface.
        .library(name: "blinkengage", type: .dynamic, targets: ["BlinkEngageABI"]),
        // `import BlinkEngage` for Swift hosts: the product's own Swift names over the same engine.
        .library(name: "BlinkEngage", targets: ["BlinkEngage"]),
    ],
    targets: [
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CIDN2", pkgConfig: "libidn2", providers: [.apt(["libidn2-dev"])]),
        .systemLibrary(name: "CBlinkEngage", path: "Sources/CBlinkEngage"),
        .systemLibrary(name: "CSystemShims", path: "Sources/CSystemShims"),
        .systemLibrary(name: "CPlatform", path: "Sources/CPlatform"),
        // C, compiled by clang: the answer scans (include/compiled.h says why).
        // DWARF 4: the valgrind the tests and benchmarks run cannot read clang's default DWARF 5.
        .target(name: "CJSONScan", path: "Sources/CJSONScan", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        .target(name: "BlinkEngageCore", dependencies: ["CCurl", "CSQLite", "CIDN2", "CSystemShims", "CPlatform", "CJSONScan"],
                swiftSettings: leanLibrary),
        .target(name: "BlinkEngageABI", dependencies: ["BlinkEngageCore", "CBlinkEngage"], swiftSettings: leanLibrary),
        .target(name: "BlinkEngage", dependencies: ["BlinkEngageCore"]),
        // make bench's Swift side of "Swift surface against the C API" (scripts/bench.sh).
        .executableTarget(name: "SwiftSurfaceBench", dependencies: ["BlinkEngage"], path: "bench/SwiftSurfaceBench"),
        // make bench's instructions per URL read, by shape (scripts/bench.sh).
        .executableTarget(name: "URLCheckBench", dependencies: ["BlinkEngageCore"], path: "bench/URLCheckBench"),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .executableTarget(name: "OutboxCrashHost", dependencies: ["BlinkEngageCore"], path: "Tests/OutboxCrashHost"),
        .testTarget(name: "BlinkEngageCoreTests", dependencies: ["BlinkEngageCore", "TestSupport"]),
        .testTarget(name: "BlinkEngageTests", dependencies: ["BlinkEngage", "TestSupport"]),
        // The guides' code, verbatim but for UIKit's types: a change of the Swift surface that breaks it fails here.
        .testTarget(name: "DocumentationSnippetTests", dependencies: ["BlinkEngage", "TestSupport"]),
        .testTarget(name: "CHostTests", dependencies: ["TestSupport"], exclude: ["c"]),
    ]
)
