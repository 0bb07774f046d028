import Foundation
import TestSupport
import XCTest

/// The header is the product: its functions and the library's exported symbols must be the same set, and
/// it must compile cleanly as C99 and as C++17.
final class HeaderExportTests: XCTestCase {
    /// Function names declared in the header (comments, macros and function-pointer typedefs left out).
    static func declaredFunctions() throws -> Set<String> {
        var text = try String(contentsOf: ProjectPaths.header, encoding: .utf8)
        text = text.replacingOccurrences(of: #"/\*[\s\S]*?\*/"#, with: " ", options: .regularExpression)
        text = text.replacingOccurrences(of: #"//[^\n]*"#, with: "", options: .regularExpression)
        let declarations = text.components(separatedBy: ";")
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.hasPrefix("typedef") }
        var names = Set<String>()
        let pattern = try NSRegularExpression(pattern: #"(?:^|[\s*])(be_[a-z0-9_]+)\s*\("#)
        for declaration in declarations {
            let lines = declaration.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") && !$0.contains("}") }
            let code = lines.joined(separator: "\n")
            let range = NSRange(code.startIndex..., in: code)
            if let match = pattern.firstMatch(in: code, range: range), let name = Range(match.range(at: 1), in: code) {
                names.insert(String(code[name]))
            }
        }
        return names
    }

    static func exportedFunctions(of library: URL) throws -> Set<String> {
        let nm = try Command.run("nm", ["-D", "--defined-only", library.path])
        precondition(nm.status == 0, nm.output)
        return Set(nm.output.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ")
            guard fields.count == 3, fields[1] == "T", fields[2].hasPrefix("be_") else { return nil }
            return String(fields[2])
        })
    }

    func testHeaderDeclarationsAndExportsAreTheSameSet() throws {
        let declared = try Self.declaredFunctions()
        let exported = try Self.exportedFunctions(of: ProjectPaths.library)
        XCTAssertGreaterThan(declared.count, 40, "the header parser found too little: \(declared.sorted())")
        XCTAssertEqual(declared.subtracting(exported).sorted(), [], "declared in the header but not exported")
        XCTAssertEqual(exported.subtracting(declared).sorted(), [], "exported but not declared in the header")
    }

    func testHeaderCompilesAsStrictC99AndCxx17() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("be-header-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = "#include \"blinkengage.h\"\nint main(void) { return be_version() == 0; }\n"
        try source.write(to: directory.appendingPathComponent("h.c"), atomically: true, encoding: .utf8)
        try source.write(to: directory.appendingPathComponent("h.cpp"), atomically: true, encoding: .utf8)
        let include = ProjectPaths.root.appendingPathComponent("include").path
        let c = try Command.run("gcc", ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I", include, "-c",
                                        directory.appendingPathComponent("h.c").path, "-o", directory.appendingPathComponent("h.o").path])
        XCTAssertEqual(c.status, 0, c.output)
        let cxx = try Command.run("g++", ["-std=c++17", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I", include, "-c",
                                          directory.appendingPathComponent("h.cpp").path, "-o", directory.appendingPathComponent("hpp.o").path])
        XCTAssertEqual(cxx.status, 0, cxx.output)
    }
}
