import Foundation

/// The local sandbox server, started on an ephemeral loopback port for one test and stopped by it.
///
/// Its standard input is a pipe the test holds: if the test process dies, the pipe closes and the sandbox
/// stops by itself (`--exit-on-stdin-eof`), so no server outlives its test.
public final class SandboxProcess: @unchecked Sendable {
    public let url: String
    /// The whole first line the server printed.
    public let firstLine: String
    private let process: Process
    private let input: Pipe

    /// Starts sandbox/server.py, or with `script` another loopback server of sandbox/ that takes
    /// `--exit-on-stdin-eof` and names its port(s) on its first line.
    public init(apiKey: String = "demo-key", extraArguments: [String] = [], script: URL? = nil) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = script.map { ["python3", $0.path, "--exit-on-stdin-eof"] + extraArguments }
            ?? ["python3", ProjectPaths.sandboxScript.path, "--exit-on-stdin-eof", "--api-key", apiKey] + extraArguments
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        // The first line names the port: "listening on http://127.0.0.1:PORT".
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        firstLine = text
        guard let range = text.range(of: "http") else {
            process.terminate()
            throw SandboxFailure(message: "the sandbox did not start: \(text)")
        }
        url = String(text[range.lowerBound...])
    }

    /// Stops the server and waits for it.
    public func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    deinit { stop() }
}

public struct SandboxFailure: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
    public init(message: String) { self.message = message }
}

extension SandboxProcess {
    /// Calls a control endpoint with the curl tool (independent of the library under test).
    @discardableResult
    public func control(_ method: String, _ path: String, body: String? = nil) throws -> String {
        var arguments = ["-sS", "-k", "-X", method, url + path]
        if let body { arguments += ["--data-binary", body] }
        let result = try Command.run("curl", arguments)
        guard result.status == 0 else { throw SandboxFailure(message: "sandbox control \(path) failed: \(result.output)") }
        return result.output
    }

    public func addFault(_ json: String) throws { try control("POST", "/_sandbox/faults", body: json) }

    /// Every request recorded so far, decoded.
    public func requests() throws -> [[String: Any]] {
        let text = try control("GET", "/_sandbox/requests")
        return (try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]) ?? []
    }
}
