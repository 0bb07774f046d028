import Foundation

/// Where the package, its built library and its tools are, for tests that build and run C hosts.
public enum ProjectPaths {
    /// The package root, found from this file's location.
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folder holding libblinkengage.so: $BE_LIB_DIR (set by `make test`), else the debug build folder.
    public static var libraryDirectory: URL {
        if let directory = ProcessInfo.processInfo.environment["BE_LIB_DIR"], !directory.isEmpty {
            return URL(fileURLWithPath: directory)
        }
        return root.appendingPathComponent(".build/debug")
    }

    public static var library: URL { libraryDirectory.appendingPathComponent("libblinkengage.so") }
    public static var header: URL { root.appendingPathComponent("include/blinkengage.h") }
    public static var sandboxScript: URL { root.appendingPathComponent("sandbox/server.py") }
    public static var fixtures: URL { root.appendingPathComponent("sandbox/fixtures") }
}
