import Foundation
import TestSupport
import XCTest

/// `make install` output, used the three ways a C host finds a library: plain cc, pkg-config and CMake.
final class InstallTests: XCTestCase {
    private var prefix: URL!
    private var work: URL!

    override func setUpWithError() throws {
        guard let dist = ProcessInfo.processInfo.environment["BE_DIST_DIR"], !dist.isEmpty else {
            throw XCTSkip("BE_DIST_DIR is not set: run `make test`, which builds the release library first")
        }
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("be-install-\(getpid())-\(UUID().uuidString)")
        prefix = base.appendingPathComponent("prefix")
        work = base.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        // Exactly what a user runs; DIST points at the release tree `make test` built (no build happens here).
        let install = try Command.run("make", ["-s", "-C", ProjectPaths.root.path, "install", "PREFIX=\(prefix.path)", "DIST=\(dist)"])
        XCTAssertEqual(install.status, 0, install.output)
        XCTAssertTrue(install.output.contains("installed libblinkengage \(try Self.headerVersion())"), install.output)
    }

    override func tearDownWithError() throws {
        if let prefix { try? FileManager.default.removeItem(at: prefix.deletingLastPathComponent()) }
    }

    static func headerVersion() throws -> String {
        let header = try String(contentsOf: ProjectPaths.header, encoding: .utf8)
        let parts = ["MAJOR", "MINOR", "PATCH"].map { name -> String in
            let line = header.split(separator: "\n").first { $0.hasPrefix("#define BE_VERSION_\(name) ") } ?? ""
            return String(line.split(separator: " ").last ?? "")
        }
        return parts.joined(separator: ".")
    }

    /// Runs the built host against a sandbox and checks it fetched offers.
    private func runHost(_ binary: URL) throws {
        let sandbox = try SandboxProcess()
        defer { sandbox.stop() }
        let run = try Command.run("/usr/bin/env", ["-i", binary.path, sandbox.url + "/native/v4", "demo-key", "checkout"])
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertTrue(run.output.contains("3 offers"), run.output)
    }

    func testTheInstalledCommandFindsItsLibraryManPageAndSandbox() throws {
        let command = prefix.appendingPathComponent("bin/blinkengage")
        XCTAssertTrue(FileManager.default.fileExists(atPath: prefix.appendingPathComponent("share/man/man1/blinkengage.1").path))
        // A bare environment: the library comes from ../lib, the sandbox from ../share/blinkengage.
        let run = try Command.run("/usr/bin/env", ["-i", "PATH=/usr/bin:/bin", command.path, "offers", "--sandbox", "--json",
                                                   "--storage", work.path])
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertTrue(run.output.hasPrefix("{\"count\": 3, "), run.output)
    }

    private var example: String { ProjectPaths.root.appendingPathComponent("examples-c/moments_offers.c").path }

    func testInstalledTreeHasTheSonameLinkHeaderAndPackageFiles() throws {
        let lib = prefix.appendingPathComponent("lib")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: lib.appendingPathComponent("libblinkengage.so").path),
                       "libblinkengage.so.1")
        for path in ["include/blinkengage.h", "lib/pkgconfig/blinkengage.pc", "lib/cmake/BlinkEngage/BlinkEngageConfig.cmake",
                     "lib/cmake/BlinkEngage/BlinkEngageConfigVersion.cmake"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: prefix.appendingPathComponent(path).path), path)
        }
    }

    func testPlainCompilerBuild() throws {
        let binary = work.appendingPathComponent("plain")
        let lib = prefix.appendingPathComponent("lib").path
        let build = try Command.run("cc", CHostTests.strictFlags + [
            "-I", prefix.appendingPathComponent("include").path, example, "-o", binary.path,
            "-L", lib, "-lblinkengage", "-lpthread", "-Wl,-rpath,\(lib)",
        ])
        XCTAssertEqual(build.status, 0, build.output)
        try runHost(binary)
    }

    func testPkgConfigBuild() throws {
        let binary = work.appendingPathComponent("pkgconfig")
        let environment = ["PKG_CONFIG_PATH": prefix.appendingPathComponent("lib/pkgconfig").path]
        let flags = try Command.run("pkg-config", ["--cflags", "--libs", "blinkengage"], environment: environment)
        XCTAssertEqual(flags.status, 0, flags.output)
        let version = try Command.run("pkg-config", ["--modversion", "blinkengage"], environment: environment)
        XCTAssertEqual(version.output.trimmingCharacters(in: .whitespacesAndNewlines), try Self.headerVersion())
        let libdir = try Command.run("pkg-config", ["--variable=libdir", "blinkengage"], environment: environment)
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
        let arguments = flags.output.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        let build = try Command.run("cc", CHostTests.strictFlags + [example, "-o", binary.path] + arguments + ["-lpthread", "-Wl,-rpath,\(libdir)"])
        XCTAssertEqual(build.status, 0, build.output)
        try runHost(binary)
    }

    func testCMakeFindPackageBuild() throws {
        let source = work.appendingPathComponent("cmake-host")
        let build = work.appendingPathComponent("cmake-build")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: example, toPath: source.appendingPathComponent("main.c").path)
        try """
        cmake_minimum_required(VERSION 3.16)
        project(host C)
        set(CMAKE_C_STANDARD 99)
        find_package(BlinkEngage 0.1 REQUIRED)
        find_package(Threads REQUIRED)
        add_executable(host main.c)
        target_compile_options(host PRIVATE -Wall -Wextra -Werror -pedantic)
        target_link_libraries(host PRIVATE BlinkEngage::blinkengage Threads::Threads)
        """.write(to: source.appendingPathComponent("CMakeLists.txt"), atomically: true, encoding: .utf8)
        let configure = try Command.run("cmake", ["-S", source.path, "-B", build.path, "-DCMAKE_PREFIX_PATH=\(prefix.path)"])
        XCTAssertEqual(configure.status, 0, configure.output)
        let make = try Command.run("cmake", ["--build", build.path])
        XCTAssertEqual(make.status, 0, make.output)
        try runHost(build.appendingPathComponent("host"))
        // A newer major version than installed is refused.
        let tooNew = source.appendingPathComponent("CMakeLists.txt")
        try String(contentsOf: tooNew, encoding: .utf8).replacingOccurrences(of: "BlinkEngage 0.1 REQUIRED", with: "BlinkEngage 9.0 REQUIRED")
            .write(to: tooNew, atomically: true, encoding: .utf8)
        let refused = try Command.run("cmake", ["-S", source.path, "-B", work.appendingPathComponent("cmake-new").path,
                                                "-DCMAKE_PREFIX_PATH=\(prefix.path)"])
        XCTAssertNotEqual(refused.status, 0, refused.output)
    }
}
