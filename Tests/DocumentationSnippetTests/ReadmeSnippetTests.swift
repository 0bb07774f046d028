import Foundation
import TestSupport
import Testing

/// README.md's Swift snippet is the one this target compiles: the same lines, but for the indentation and the
/// `import` the file has at its top.
struct ReadmeSnippetTests {
    static func lines(of text: String, between begin: String, and end: String) -> [String] {
        let all = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = all.firstIndex(where: { $0.hasPrefix(begin) }),
              let last = all[(first + 1)...].firstIndex(where: { $0.hasPrefix(end) }) else { return [] }
        return Array(all[(first + 1)..<last])
    }

    @Test func theReadmesSwiftSnippetIsTheCompiledOne() throws {
        let readme = try String(contentsOf: ProjectPaths.root.appendingPathComponent("README.md"), encoding: .utf8)
        let compiled = try String(contentsOf: ProjectPaths.root.appendingPathComponent("Tests/DocumentationSnippetTests/ReadmeSnippet.swift"),
                                  encoding: .utf8)
        let shown = Self.lines(of: readme, between: "import BlinkEngage", and: "```")
        #expect(!shown.isEmpty)
        #expect(shown.filter { !$0.isEmpty } == Self.lines(of: compiled, between: "// readme: begin", and: "// readme: end").filter { !$0.isEmpty })
    }
}
