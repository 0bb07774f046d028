@testable import BlinkEngageCore
import Foundation
import Testing

/// The flight recorder without the network: what it redacts, its bound in memory, and its file's rotation.
struct FlightRecorderTests {
    @Test(arguments: [
        ("https://a.example/offers.json?api_key=k1&placement=x", "https://a.example/offers.json?api_key=REDACTED&placement=x"),
        ("https://u:p@a.example/v1/feed?TOKEN=t&x=1#frag", "https://a.example/v1/feed?TOKEN=REDACTED&x=1"),
        ("https://a.example/b?pub_user_id=me&device%5Fid=d&fp=f", "https://a.example/b?pub_user_id=REDACTED&device%5Fid=REDACTED&fp=REDACTED"),
        ("https://a.example/plain", "https://a.example/plain"),
        ("https://a.example/p?api_key", "https://a.example/p?api_key"),
    ])
    func redactsSecretsFromURLs(url: String, expected: String) {
        #expect(RecorderText.redacted(url) == expected)
    }

    @Test func keepsTheNewestEntriesAndRotatesItsFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("be-recorder-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recorder = FlightRecorder(capacity: 3, directory: try StorageDirectory.at(directory))
        let detail = String(repeating: "x", count: 200)
        for index in 0..<4000 { recorder.decision("step_\(index)", detail) }
        let lines = recorder.jsonLines.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.last?.contains("step_3999") == true && lines.first?.contains("step_3997") == true)
        let file = directory + "/recorder.jsonl"
        let current = try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int ?? Int.max
        let older = try FileManager.default.attributesOfItem(atPath: file + ".1")[.size] as? Int ?? 0
        #expect(current <= FlightRecorder.fileBytes && older <= FlightRecorder.fileBytes && older > FlightRecorder.fileBytes / 2)
        #expect(try String(contentsOfFile: file, encoding: .utf8).hasSuffix("\n"))
    }
}
