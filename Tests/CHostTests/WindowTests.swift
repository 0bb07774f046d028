import Foundation
import TestSupport
import XCTest

/// The offer unit in a real window: examples-c/offer_window.c runs under Xvfb against its own sandbox, saves a
/// screenshot, and the pixels are checked where its printed layout puts the card, the buttons and the creative.
final class WindowTests: XCTestCase {
    /// A 24-bit bottom-up BMP as SDL_SaveBMP writes it.
    struct Bitmap {
        let width: Int, height: Int
        let bytes: [UInt8]
        let offset: Int, stride: Int

        init(_ data: Data) throws {
            let bytes = [UInt8](data)
            func number(_ at: Int, _ count: Int) -> Int { (0..<count).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
            guard bytes.count > 54, bytes[0] == 0x42, bytes[1] == 0x4D, number(28, 2) == 24 else {
                throw XCTSkip("not a 24-bit BMP")
            }
            self.bytes = bytes
            offset = number(10, 4)
            width = number(18, 4)
            height = number(22, 4)
            stride = (width * 3 + 3) / 4 * 4
        }

        /// The pixel at (x, y), y down from the top, as 0xRRGGBB.
        func pixel(_ x: Int, _ y: Int) -> Int {
            let at = offset + (height - 1 - y) * stride + x * 3
            return Int(bytes[at + 2]) << 16 | Int(bytes[at + 1]) << 8 | Int(bytes[at])
        }
    }

    private func hex(_ value: Int) -> String { "#" + String(value, radix: 16, uppercase: true).leftPadded(to: 6) }

    /// Parses "layout card=x,y,w,h image=..." into named boxes.
    private func layout(_ output: String) -> [String: [Int]] {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("layout ") }) else { return [:] }
        var boxes: [String: [Int]] = [:]
        for field in line.dropFirst("layout ".count).split(separator: " ") {
            let parts = field.split(separator: "=")
            guard parts.count == 2 else { continue }
            boxes[String(parts[0])] = parts[1].split(separator: ",").compactMap { Int($0) }
        }
        return boxes
    }

    private func runWindow(keys: String, example: String = "offer_window", sandbox given: SandboxProcess? = nil,
                           arguments: (String) -> [String] = { ["\($0)/native/v4"] }) throws -> (output: String, bitmap: Bitmap, layout: [String: [Int]]) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xvfb-run") else {
            throw XCTSkip("no X server can be started here: xvfb-run is missing (Debian's xvfb provides it)")
        }
        let flags = try Command.run("pkg-config", ["--cflags", "--libs", "sdl2", "SDL2_image", "SDL2_ttf"])
        guard flags.status == 0 else { throw XCTSkip("SDL2 development files are missing: \(flags.output)") }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("be-window-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let binary = work.appendingPathComponent(example)
        let build = try CHostTests.compile(
            ProjectPaths.root.appendingPathComponent("examples-c/\(example).c"), to: binary,
            libraries: ["-lm"] + flags.output.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init))
        XCTAssertEqual(build.status, 0, build.output)

        let sandbox = try given ?? SandboxProcess()
        defer { if given == nil { sandbox.stop() } }
        let shot = work.appendingPathComponent("shot.bmp")
        let run = try Command.run("/usr/bin/xvfb-run", [
            "-a", "-s", "-screen 0 800x700x24 -nolisten tcp", binary.path,
        ] + arguments(sandbox.url) + ["--keys", keys, "--screenshot", shot.path],
            environment: ["XDG_STATE_HOME": work.appendingPathComponent("state").path])
        if run.status != 0, run.output.contains("Xvfb failed to start") || run.output.contains("Cannot open display") {
            throw XCTSkip("no X server can be started here: \(run.output)")
        }
        XCTAssertEqual(run.status, 0, run.output)
        return (run.output, try Bitmap(Data(contentsOf: shot)), layout(run.output))
    }

    func testTheCardIsDrawnInTheAnswersColoursWithItsCreative() throws {
        let (output, bitmap, boxes) = try runWindow(keys: "")
        guard let card = boxes["card"], let header = boxes["header"], let image = boxes["image"], let yes = boxes["yes"],
              let no = boxes["no"], card.count == 4, header.count == 4, image.count == 4, yes.count == 4, no.count == 4 else {
            return XCTFail("no layout printed:\n\(output)")
        }
        XCTAssertEqual(bitmap.width, 520)
        // The fixture's styles: popup.background, header.background, the buttons' backgrounds and the no button's stroke.
        XCTAssertEqual(hex(bitmap.pixel(card[0] + card[2] - 12, card[1] + card[3] - 60)), "#FFFFFF", "card background")
        XCTAssertEqual(hex(bitmap.pixel(header[0] + 6, header[1] + header[3] / 2)), "#0B1937", "header background")
        XCTAssertEqual(hex(bitmap.pixel(yes[0] + 6, yes[1] + yes[3] / 2)), "#1A73E8", "yes button")
        XCTAssertEqual(hex(bitmap.pixel(no[0] + 6, no[1] + no[3] / 2)), "#FFFFFF", "no button")
        XCTAssertEqual(hex(bitmap.pixel(no[0], no[1] + no[3] / 2)), "#CCCCCC", "no button's stroke")
        // The creative: the fixture PNG's centre is #F2994A, fetched through be_sdk_fetch_image and drawn in the box.
        for (dx, dy) in [(0, 0), (-10, 0), (10, 0), (0, -10), (0, 10)] {
            XCTAssertEqual(hex(bitmap.pixel(image[0] + image[2] / 2 + dx, image[1] + image[3] / 2 + dy)), "#F2994A", "creative")
        }
        // Outside the card: the backdrop, not the card's white.
        XCTAssertNotEqual(hex(bitmap.pixel(8, 8)), "#FFFFFF")
    }

    func testAcceptingPrintsTheClickURLAndTheCardMovesOn() throws {
        let (output, bitmap, boxes) = try runWindow(keys: "ry")
        XCTAssertTrue(output.contains("open https://track.example.com/sdk/offer_click?o_id=4002&"), output)
        // The third offer has no creative: its image box shows the placeholder, not the fixture's colour.
        let image = try XCTUnwrap(boxes["image"])
        XCTAssertNotEqual(hex(bitmap.pixel(image[0] + image[2] / 2, image[1] + image[3] / 2)), "#F2994A")
    }
}

extension WindowTests {
    /// The offer wall drawn by examples-c/offer_wall.c: every group with its offers; what it draws is reported as
    /// visible, so the SDK records a did_appear per card; V then O opens the first group and its first offer.
    func testTheOfferWallIsDrawnAndRecordsWhatItShows() throws {
        let sandbox = try SandboxProcess()
        defer { sandbox.stop() }
        let (output, bitmap, boxes) = try runWindow(keys: "", example: "offer_wall", sandbox: sandbox) { [$0, "--user", "wall-user"] }
        guard let first = boxes["first"], let header = boxes["header"], first.count == 4, header.count == 4 else {
            return XCTFail("no layout printed:\n\(output)")
        }
        XCTAssertTrue(output.contains("layout level=0 cards=3 "), output)
        XCTAssertEqual(hex(bitmap.pixel(header[0] + 6, header[1] + header[3] / 2)), "#1A73E8", "header")
        XCTAssertEqual(hex(bitmap.pixel(first[0] + first[2] - 8, first[1] + first[3] - 6)), "#FFFFFF", "card")
        XCTAssertEqual(hex(bitmap.pixel(first[0] + 1, first[1] + first[3] / 2)), "#1A73E8", "card's stripe")
        XCTAssertEqual(hex(bitmap.pixel(8, bitmap.height - 8)), "#F2F4F7", "backdrop")
        let events = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try sandbox.control("GET", "/_sandbox/events").utf8)) as? [String: Any])
        XCTAssertEqual((events["events"] as? [[String: Any]])?.compactMap { $0["type"] as? String }, ["did_appear", "did_appear", "did_appear"])

        let (opened, details, layout) = try runWindow(keys: "vo", example: "offer_wall", sandbox: sandbox) { [$0, "--user", "wall-user"] }
        XCTAssertTrue(opened.contains("layout level=2 cards=0 "), opened)
        let yes = try XCTUnwrap(layout["yes"])
        XCTAssertEqual(hex(details.pixel(yes[0] + 6, yes[1] + yes[3] / 2)), "#1A73E8", "accept button")
    }
}

private extension String {
    func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}
