@testable import BlinkEngageCore
import Foundation
import Testing

/// The empty database a fresh start puts in place (`StoreTemplate`) is the one the schema's statements make: the
/// same bytes but for the header's record of the SQLite that wrote them, the same catalogue, a sound file that
/// takes reports. A name already taken is left alone. With `BE_STORE_TEMPLATE_OUT` set
/// (`scripts/store-template.sh`), the first test writes the image the statements make there instead.
@Suite struct StoreTemplateTests {
    let root = NSTemporaryDirectory() + "be-template-\(UUID().uuidString)"

    /// A directory's database made by the statements, checkpointed into the file: its bytes.
    func statementsImage() throws -> [UInt8] {
        let path = root + "/statements"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard case .ready(let database, _) = try StoreFormat.open(try StorageDirectory.at(path), template: false) else {
            throw EngineFailure.invalidState("not ready")
        }
        try Self.checkpoint(database)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path + "/" + Database.fileName)))
    }

    static func checkpoint(_ database: Database) throws {
        try database.withConnection { session throws(EngineFailure) in
            try session.run("PRAGMA wal_checkpoint(TRUNCATE)") { _ throws(EngineFailure) in }
        }
    }

    /// Every row of the catalogue, the format and the journal mode, one per line.
    static func catalogue(_ database: Database) throws -> [String] {
        try database.withConnection { session throws(EngineFailure) in
            var lines: [String] = []
            try session.run("SELECT type, name, tbl_name, rootpage, sql FROM sqlite_master ORDER BY rowid") { row throws(EngineFailure) in
                lines.append((0..<5).map { row.text($0) ?? "NULL" }.joined(separator: " | "))
            }
            for pragma in ["user_version", "journal_mode", "integrity_check", "page_size", "encoding", "auto_vacuum"] {
                try session.run("PRAGMA \(pragma)") { row throws(EngineFailure) in lines.append("\(pragma) \(row.text(0) ?? "")") }
            }
            return lines
        }
    }

    @Test func theImageIsWhatTheStatementsMake() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let made = try statementsImage()
        if let out = ProcessInfo.processInfo.environment["BE_STORE_TEMPLATE_OUT"] {
            try Self.source(for: made).write(toFile: out, atomically: true, encoding: .utf8)
            return
        }
        #expect(StoreTemplate.format == StoreFormat.current, "the image is of another format: run scripts/store-template.sh")
        let image = StoreTemplate.image()
        try #require(image.count == made.count, "the image is \(image.count) bytes, the statements make \(made.count): run scripts/store-template.sh")
        // Bytes 92..<100 record the SQLite that wrote the file (the change counter it wrote at, its version number).
        let differing = image.indices.filter { image[$0] != made[$0] && !(92..<100).contains($0) }
        #expect(differing.isEmpty, "the image differs at \(differing.prefix(8)): run scripts/store-template.sh")
    }

    @Test func aFreshDirectoryGetsTheImageAndItWorksAsTheStatementsOne() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/fresh"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard case .ready(let database, let migration) = try StoreFormat.open(try StorageDirectory.at(path)) else {
            Issue.record("not ready")
            return
        }
        #expect(migration == StoreFormat.Migration(), "a fresh directory held no format and carried nothing")
        // The statements leave the schema in the WAL and the file one page long; the image is the whole file. The
        // portable build has no rename that refuses to replace (`Platform.renameExclusive`): the statements make it.
        let size = try FileManager.default.attributesOfItem(atPath: path + "/" + Database.fileName)[.size] as? Int
        #expect((size == StoreTemplate.size) == (Platform.implementation == "linux"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.contains(".tmp-") }.isEmpty)
        _ = try statementsImage()
        guard case .ready(let statements, _) = try StoreFormat.open(try StorageDirectory.at(root + "/statements"), template: false) else {
            Issue.record("not ready")
            return
        }
        let expected = try Self.catalogue(statements)
        #expect(expected.contains("integrity_check ok") && expected.contains("user_version \(StoreFormat.current)"))
        #expect(try Self.catalogue(database) == expected)
        // It takes reports, numbered from 1 (AUTOINCREMENT's table is part of the image), and keeps them.
        let storage = SQLiteOutboxStorage(database: database)
        let first = try storage.insert(.beacon(url: "http://pixels.test/1"), createdMilliseconds: 1)
        let second = try storage.insert(.beacon(url: "http://pixels.test/2"), createdMilliseconds: 2)
        #expect([first, second] == [1, 2])
        #expect(storage.storedIDs() == [1, 2])
        try Self.checkpoint(database)
        #expect(try Self.catalogue(database).contains("integrity_check ok"))
    }

    @Test func aNameAlreadyTakenIsLeftAlone() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/taken"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let directory = try StorageDirectory.at(path)
        // An empty file (a start that died before SQLite wrote its header), and a link planted in its place.
        #expect(FileManager.default.createFile(atPath: path + "/" + Database.fileName, contents: Data()))
        #expect(!StoreTemplate.place(in: directory))
        #expect(try FileManager.default.attributesOfItem(atPath: path + "/" + Database.fileName)[.size] as? Int == 0)
        try FileManager.default.removeItem(atPath: path + "/" + Database.fileName)
        let outside = root + "/outside.db"
        #expect(FileManager.default.createFile(atPath: outside, contents: Data("theirs".utf8)))
        try FileManager.default.createSymbolicLink(atPath: path + "/" + Database.fileName, withDestinationPath: outside)
        #expect(!StoreTemplate.place(in: directory))
        #expect(try String(contentsOfFile: outside, encoding: .utf8) == "theirs")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path + "/" + Database.fileName) == outside)
        #expect(try FileManager.default.contentsOfDirectory(atPath: path) == [Database.fileName], "no temporary file is left")
    }

    /// `StoreTemplate+Image.swift` for `bytes`: the runs of bytes that are not zero (a run goes on over fewer than
    /// eight zeros), sixteen to a line.
    static func source(for bytes: [UInt8]) -> String {
        var runs: [(offset: Int, bytes: ArraySlice<UInt8>)] = []
        var at = 0
        while at < bytes.count {
            guard bytes[at] != 0 else { at += 1; continue }
            var end = at
            while end < bytes.count, bytes[end..<min(end + 8, bytes.count)].contains(where: { $0 != 0 }) { end += 1 }
            while bytes[end - 1] == 0 { end -= 1 }
            runs.append((at, bytes[at..<end]))
            at = end
        }
        func hex(_ byte: UInt8) -> String { "0x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2) }
        var lines = [
            "// Generated by scripts/store-template.sh from the schema's statements: do not edit.",
            "extension StoreTemplate {",
            "    static let format: Int64 = \(StoreFormat.current)",
            "    static let size = \(bytes.count)",
            "    static let runs: [(offset: Int, bytes: [UInt8])] = [",
        ]
        for run in runs {
            lines.append("        (\(run.offset), [")
            for row in stride(from: run.bytes.startIndex, to: run.bytes.endIndex, by: 16) {
                lines.append("            " + run.bytes[row..<min(row + 16, run.bytes.endIndex)].map(hex).joined(separator: ", ") + ",")
            }
            lines.append("        ]),")
        }
        lines += ["    ]", "}", ""]
        return lines.joined(separator: "\n")
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
