// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "BlinkEngage",
    products: [
        .library(name: "blinkengage", type: .dynamic, targets: ["BlinkEngage"]),
    ],
    targets: [
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CBlinkEngage", path: "Sources/CBlinkEngage"),
        .systemLibrary(name: "CSystemShims", path: "Sources/CSystemShims"),
        .target(name: "BlinkEngageCore", dependencies: ["CCurl", "CSQLite", "CSystemShims"]),
        .target(name: "BlinkEngage", dependencies: ["BlinkEngageCore", "CBlinkEngage"]),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .executableTarget(name: "OutboxCrashHost", dependencies: ["BlinkEngageCore"], path: "Tests/OutboxCrashHost"),
        .testTarget(name: "BlinkEngageCoreTests", dependencies: ["BlinkEngageCore", "TestSupport"]),
        .testTarget(name: "CHostTests", dependencies: ["TestSupport"], exclude: ["c"]),
    ]
)
