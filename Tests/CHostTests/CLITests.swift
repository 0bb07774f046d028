import Foundation
import TestSupport
import XCTest

/// The blinkengage command (cli/command_line.c) against its own sandbox: every subcommand as a table and as JSON,
/// its help, and its error paths with their exit status (0 success, 1 the service said no, 2 usage).
final class CLITests: XCTestCase {
    /// The command, compiled once for all tests with the strict flags against the built library.
    private static let build: (binary: URL, result: CommandResult?) = {
        let binary = FileManager.default.temporaryDirectory.appendingPathComponent("be-cli-\(getpid())")
        let result = try? CHostTests.compile(ProjectPaths.root.appendingPathComponent("cli/command_line.c"), to: binary)
        return (binary, result)
    }()
    private static var binary: URL? { build.binary }
    private var sandbox: SandboxProcess!
    private var storage: URL!

    override func setUpWithError() throws {
        let built = try XCTUnwrap(Self.build.result, "gcc did not run")
        XCTAssertEqual(built.status, 0, "compiling cli/command_line.c failed:\n\(built.output)")
        guard built.status == 0 else { return }
        sandbox = try SandboxProcess()
        storage = FileManager.default.temporaryDirectory.appendingPathComponent("be-cli-storage-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        if sandbox != nil { sandbox.stop() }
        if let storage { try? FileManager.default.removeItem(at: storage) }
    }

    /// Runs the command with the sandbox's URLs and a storage of the test's own; output and error apart.
    private func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = Self.binary!
        let urls = ["--moments-url", sandbox.url + "/native/v4", "--engage-url", sandbox.url, "--storage", storage.path]
        process.arguments = arguments.first.map { ["offers", "feed", "wall", "image"].contains($0) } == true
            ? [arguments[0]] + urls + arguments.dropFirst() : arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    private func json(_ text: String) throws -> [String: Any] {
        XCTAssertEqual(text.filter { $0 == "\n" }.count, 1, "one line: \(text)")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }

    /// Server text with terminal escape sequences (a window title, a screen clear, an OSC 8 link, a C1 CSI) never
    /// reaches the terminal raw: the table shows U+FFFD in their place, JSON keeps them escaped and stays JSON.
    func testServerTextNeverReachesATerminalRaw() throws {
        let title = "T\u{1B}]0;pwned\u{07} \u{1B}[2J \u{1B}]8;;http://evil/\u{1B}\\link\u{1B}]8;;\u{1B}\\ \u{9B}31m"
        let offer: [String: Any] = ["id": 1, "title": title, "click_url": "https://a.example/", "advertiser_name": "A\u{1B}[31m"]
        let body = String(decoding: try JSONSerialization.data(withJSONObject: ["data": ["offers": [offer], "count": 1]]), as: UTF8.self)
        let fault = String(decoding: try JSONSerialization.data(withJSONObject: ["path": "offers.json", "status": 200, "body": body]), as: UTF8.self)
        try sandbox.addFault(fault)
        let table = try run(["offers", "--key", "demo-key"])
        XCTAssertEqual(table.status, 0, table.err)
        XCTAssertFalse(table.out.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || ($0.value >= 0x7F && $0.value <= 0x9F) },
                       table.out.debugDescription)
        XCTAssertTrue(table.out.contains("\u{FFFD}]0;pwned"), table.out)
        let json = try self.json(try run(["offers", "--key", "demo-key", "--json"]).out)
        let offers = try XCTUnwrap(json["offers"] as? [[String: Any]])
        XCTAssertEqual(offers.first?["title"] as? String, title)
    }

    /// A closed stdout ends the command quietly; arguments that are not UTF-8 or are absurdly long are usage errors.
    func testClosedOutputAndHostileArguments() throws {
        let binary = Self.binary!.path
        let base = "'\(binary)' offers --moments-url '\(sandbox.url)/native/v4' --key demo-key --storage '\(storage.path)'"
        let closed = try Command.run("/bin/sh", ["-c", "\(base) --placement checkout | head -c1 >/dev/null; echo \"status $?\""])
        XCTAssertTrue(closed.output.contains("status 0"), closed.output)
        XCTAssertFalse(closed.output.contains("blinkengage:"), closed.output)
        let notUTF8 = try Command.run("/bin/sh", ["-c", "\(base) --placement \"$(printf '\\377\\376')\"; echo \"status $?\""])
        XCTAssertTrue(notUTF8.output.contains("is not UTF-8") && notUTF8.output.contains("status 2"), notUTF8.output)
        let huge = try Command.run("/bin/sh", ["-c", "\(base) --placement \"$(head -c 100000 /dev/zero | tr '\\0' a)\"; echo \"status $?\""])
        XCTAssertTrue(huge.output.contains("longer than 8192 bytes") && huge.output.contains("status 2"), huge.output)
    }

    func testOffersAsATableAndAsJSON() throws {
        let table = try run(["offers", "--key", "demo-key", "--placement", "checkout", "--payload", "country=DE"])
        XCTAssertEqual(table.status, 0, table.err)
        let lines = table.out.split(separator: "\n")
        XCTAssertTrue(lines.first?.hasPrefix("ID    TITLE") == true, table.out)
        // Aligned by characters, not bytes: each row's advertiser starts where its heading does.
        let column = try XCTUnwrap(lines.first?.range(of: "ADVERTISER")).lowerBound
        let headingOffset = lines[0].distance(from: lines[0].startIndex, to: column)
        for (row, advertiser) in [(1, "Streamly"), (2, "Café Olé"), (3, "Taskr")] {
            let line = lines[row]
            let found = try XCTUnwrap(line.range(of: advertiser, options: .backwards), String(line))
            XCTAssertEqual(line.distance(from: line.startIndex, to: found.lowerBound), headingOffset, String(line))
        }
        XCTAssertEqual(lines.last, "3 offers")
        XCTAssertFalse(table.out.contains("\u{1b}["), "no colour into a pipe")
        let requests = try sandbox.requests()
        XCTAssertEqual(requests.count, 1, "one command, one request: \(requests)")
        XCTAssertTrue((requests.last?["body"] as? String)?.contains("\"country\":\"DE\"") == true, "\(requests)")

        let answer = try run(["offers", "--key", "demo-key", "--json"])
        XCTAssertEqual(answer.status, 0, answer.err)
        let object = try json(answer.out)
        XCTAssertEqual(object["count"] as? Int, 3)
        let offers = try XCTUnwrap(object["offers"] as? [[String: Any]])
        XCTAssertEqual(offers.map { $0["id"] as? String }, ["4001", "4002", "4003"])
        XCTAssertEqual(offers[0]["advertiser_name"] as? String, "Streamly")
        XCTAssertTrue(answer.out.hasPrefix("{\"count\": 3, \"offers\": [{\"id\": \"4001\", \"title\": "), "stable order")
    }

    func testFeedAsATableAndAsJSON() throws {
        let table = try run(["feed", "--key", "demo-key", "--user", "cli-user"])
        XCTAssertEqual(table.status, 0, table.err)
        XCTAssertTrue(table.out.hasPrefix("GROUP          ID    TITLE\nEntertainment  4001"), table.out)
        XCTAssertTrue(table.out.contains("3 offers in 2 groups"), table.out)
        let answer = try run(["feed", "--key", "demo-key", "--user", "cli-user", "--json"])
        XCTAssertEqual(answer.status, 0, answer.err)
        let groups = try XCTUnwrap(try json(answer.out)["groups"] as? [[String: Any]])
        XCTAssertEqual(groups.map { $0["id"] as? String }, ["g_entertainment", "g_food"])
    }

    /// The wall as printed: what it prints counts as shown, and the SDK records (and delivers) the wall's events.
    func testTheOfferWallAsPrintedAndItsEvents() throws {
        let table = try run(["wall", "--key", "demo-key", "--user", "cli-user"])
        XCTAssertEqual(table.status, 0, table.err)
        XCTAssertTrue(table.out.hasPrefix("Offer wall of feed f_1\nEntertainment (2)\n  [0.0] 4001 "), table.out)
        XCTAssertTrue(table.out.hasSuffix("3 offers shown\n"), table.out)
        let details = try run(["wall", "--key", "demo-key", "--user", "cli-user", "--open", "0.1", "--json"])
        XCTAssertEqual(details.status, 0, details.err)
        XCTAssertEqual(try json(details.out)["id"] as? String, "4003")
        let group = try run(["wall", "--key", "demo-key", "--user", "cli-user", "--open", "1", "--json"])
        XCTAssertEqual((try json(group.out)["offers"] as? [[String: Any]])?.compactMap { $0["id"] as? String }, ["4002"])
        let events = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try sandbox.control("GET", "/_sandbox/events").utf8)) as? [String: Any])
        let types = (events["events"] as? [[String: Any]] ?? []).compactMap { $0["type"] as? String }
        // 3 shown on the wall; the details: did_tap (showing them is an impression, not a did_appear); the group:
        // view_all, and did_appear for its one offer
        XCTAssertEqual(types.sorted(), ["did_appear", "did_appear", "did_appear", "did_appear", "did_tap", "view_all"])
        let bad = try run(["wall", "--key", "demo-key", "--user", "cli-user", "--open", "7"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.err.contains("no group 7"), bad.err)
    }

    func testZoneAdsAndTheirErrors() throws {
        let template = sandbox.url + "/api/adAPI.php?AdID={zone}"
        let table = try run(["zone-ad", "--url", template, "1"])
        XCTAssertEqual(table.status, 0, table.err)
        XCTAssertTrue(table.out.hasPrefix("zone   1\nshown  yes\nimage  \(sandbox.url)/cdn/zones/1/banner.png\n"), table.out)
        let answer = try json(try run(["zone-ad", "--url", template, "2", "--json"]).out)
        XCTAssertEqual(answer["enabled"] as? Bool, false)
        let malformed = try run(["zone-ad", "--url", template, "5"])
        XCTAssertEqual(malformed.status, 1)
        XCTAssertTrue(malformed.err.hasPrefix("blinkengage: BlinkEngageZoneAd 1: "), malformed.err)
        XCTAssertEqual(try run(["zone-ad", "1"]).status, 2, "no template")
        XCTAssertEqual(try run(["zone-ad", "--url", "no-zone-here", "1"]).status, 2)
    }

    func testImagesToAFileAndAsJSON() throws {
        let file = storage.appendingPathComponent("creative.png")
        try FileManager.default.createDirectory(at: storage, withIntermediateDirectories: true)
        let url = sandbox.url + "/cdn/c/9001.png"
        let first = try run(["image", url, "-o", file.path])
        XCTAssertEqual(first.status, 0, first.err)
        XCTAssertEqual(first.out, "wrote 427 bytes of image/png to \(file.path)\n")
        XCTAssertEqual(try Data(contentsOf: file), try Data(contentsOf: ProjectPaths.fixtures.appendingPathComponent("images/offer.png")))
        let second = try json(try run(["image", url, "-o", file.path, "--json"]).out)
        XCTAssertEqual(second["from_cache"] as? Bool, true, "the disk cache of the same storage answered")
        XCTAssertEqual(second["bytes"] as? Int, 427)
        let refused = try run(["image", sandbox.url + "/cdn/page.png?type=text/html", "-o", file.path])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.err.hasPrefix("blinkengage: BlinkEngageImage 3: "), refused.err)
        XCTAssertEqual(try run(["image", url]).status, 2, "no -o")
    }

    func testStatsOfAStorageDirectory() throws {
        XCTAssertEqual(try run(["feed", "--key", "demo-key", "--user", "cli-user"]).status, 0)
        let table = try run(["stats", "--storage", storage.path])
        XCTAssertEqual(table.status, 0, table.err)
        XCTAssertTrue(table.out.contains("identity        set\n"), table.out)
        let answer = try json(try run(["stats", "--storage", storage.path, "--json"]).out)
        XCTAssertEqual(answer["has_identity"] as? Bool, true)
        XCTAssertGreaterThan(answer["database_bytes"] as? Int ?? 0, 0)
        let missing = try run(["stats", "--storage", storage.path, "--key", "another-key"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.err.contains("no storage for this API key"), missing.err)
    }

    func testTheSandboxOptionStartsItsOwn() throws {
        let run = try self.run(["offers", "--sandbox", "--json", "--storage", storage.path],
                               environment: ["BLINKENGAGE_SANDBOX": ProjectPaths.sandboxScript.path])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertEqual(try json(run.out)["count"] as? Int, 3)
    }

    func testHelpVersionAndUsageErrors() throws {
        for command in ["offers", "feed", "wall", "zone-ad", "image", "stats"] {
            let help = try run([command, "--help"])
            XCTAssertEqual(help.status, 0)
            XCTAssertTrue(help.out.hasPrefix("usage: blinkengage \(command) "), help.out)
        }
        XCTAssertTrue(try run(["--help"]).out.contains("commands:"))
        XCTAssertTrue(try run(["--version"]).out.hasPrefix("blinkengage "))
        for (arguments, words) in [
            ([], "usage: blinkengage COMMAND"), (["bogus"], "unknown command bogus"), (["offers"], "offers needs --key"),
            (["offers", "--key"], "--key needs a value"), (["offers", "--key", "k", "--frobnicate"], "unknown option --frobnicate"),
            (["offers", "--key", "k", "--payload", "novalue"], "--payload takes NAME=VALUE"),
            (["feed", "--key", "k"], "feed needs --user"), (["offers", "--key", "k", "--timeout-ms", "0"], "--timeout-ms"),
            (["stats"], "stats needs --storage"),
        ] as [([String], String)] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.err)")
            XCTAssertTrue(result.err.contains(words), "\(arguments): \(result.err)")
            XCTAssertEqual(result.out, "", "errors go to stderr")
        }
    }

    func testServiceErrorsSayTheirDomainCodeAndStatus() throws {
        let refused = try run(["offers", "--key", "wrong-key"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.err.hasPrefix("blinkengage: BlinkEngageMoments 6: "), refused.err)
        XCTAssertTrue(refused.err.hasSuffix("(HTTP 401)\n"), refused.err)
    }

    func testHeadingsAreBoldOnATerminalUnlessNoColor() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("no script(1) for a terminal") }
        // The runner's own environment may carry NO_COLOR: the colour case removes it, the plain case sets it.
        let command = "\(Self.binary!.path) offers --key demo-key --moments-url \(sandbox.url)/native/v4 --storage \(storage.path)"
        let colored = try Command.run("/usr/bin/script", ["-qec", "env -u NO_COLOR TERM=xterm \(command)", "/dev/null"])
        XCTAssertTrue(colored.output.contains("\u{1b}[1mID\u{1b}[0m"), colored.output.debugDescription)
        let plain = try Command.run("/usr/bin/script", ["-qec", "env NO_COLOR=1 TERM=xterm \(command)", "/dev/null"])
        XCTAssertFalse(plain.output.contains("\u{1b}["), plain.output)
    }

    /// The key's directory below a storage root, as the SDK names it (FNV-1a-64 of the key, 16 hex digits).
    private func keyDirectory(_ key: String) -> URL {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return storage.appendingPathComponent(String(repeating: "0", count: 16 - hex.count) + hex)
    }

    /// inspect prints the recorder's lines terminal-safe, follows what is appended, and exports HAR 1.2.
    func testInspectFollowsTheRecorderAndExportsHAR() throws {
        let directory = keyDirectory("demo-key")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("recorder.jsonl")
        let request = #"{"t":"2026-12-05T04:00:00.000Z","type":"request","method":"GET","url":"http://a.example/x?api_key=REDACTED\u001b]0;t","status":200,"bytes":12,"timings":{"queue":0.1,"dns":0.2,"connect":0.3,"tls":0,"wait":1.5,"receive":0.1,"total":2.2}}"#
        let decision = #"{"t":"2026-12-05T04:00:00.001Z","type":"decision","what":"image_from_memory_cache","detail":"x"}"#
        try (request + "\n" + decision + "\n").write(to: file, atomically: true, encoding: .utf8)

        let once = try run(["inspect", "--storage", storage.path, "--key", "demo-key", "--once"])
        XCTAssertEqual(once.status, 0, once.err)
        XCTAssertEqual(once.out.split(separator: "\n").count, 2, once.out)
        XCTAssertTrue(once.out.contains("image_from_memory_cache"))

        let har = try run(["inspect", "--storage", storage.path, "--key", "demo-key", "--har", "-"])
        XCTAssertEqual(har.status, 0, har.err)
        let log = try XCTUnwrap((JSONSerialization.jsonObject(with: Data(har.out.utf8)) as? [String: Any])?["log"] as? [String: Any])
        XCTAssertEqual(log["version"] as? String, "1.2")
        let entries = try XCTUnwrap(log["entries"] as? [[String: Any]])
        XCTAssertEqual(entries.count, 1)
        XCTAssertEqual((entries[0]["timings"] as? [String: Any])?["wait"] as? Double, 1.5)
        XCTAssertEqual((log["_decisions"] as? [Any])?.count, 1)

        let missing = try run(["inspect", "--storage", storage.path, "--key", "other-key", "--once"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.err.contains("no recorder file"), missing.err)

        // Following: a line appended after the start is printed, then the process is stopped.
        let process = Process()
        process.executableURL = Self.binary!
        process.arguments = ["inspect", "--storage", storage.path, "--key", "demo-key"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        defer { if process.isRunning { process.terminate() }; process.waitUntilExit() }
        var seen = ""
        let handle = out.fileHandleForReading
        func readMore() -> Bool {
            let data = handle.availableData  // empty only at end of file: the command stopped
            seen += String(decoding: data, as: UTF8.self)
            return !data.isEmpty
        }
        while seen.split(separator: "\n").count < 2, readMore() {}
        let appended = #"{"t":"2026-12-05T04:00:01.000Z","type":"decision","what":"retry_scheduled","detail":"later"}"#
        let writer = try FileHandle(forWritingTo: file)
        writer.seekToEndOfFile()
        writer.write(Data((appended + "\n").utf8))
        try writer.close()
        while !seen.contains("retry_scheduled"), readMore() {}
        XCTAssertEqual(seen.split(separator: "\n").count, 3)
    }
}
