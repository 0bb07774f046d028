import BlinkEngage
import Foundation
import Synchronization
import TestSupport

/// A sandbox and a fresh storage directory for one test, with SDKs started against them.
final class SurfaceFixture: Sendable {
    let sandbox: SandboxProcess
    let root: String

    init() throws {
        sandbox = try SandboxProcess()
        root = NSTemporaryDirectory() + "be-swift-\(UUID().uuidString)"
    }

    deinit {
        sandbox.stop()
        try? FileManager.default.removeItem(atPath: root)
    }

    func configuration(_ change: (inout BlinkEngageConfiguration) -> Void = { _ in }) -> BlinkEngageConfiguration {
        var configuration = BlinkEngageConfiguration(apiKey: "demo-key")
        configuration.momentsURL = sandbox.url + "/native/v4"
        configuration.engageURL = sandbox.url
        configuration.zoneAdURLTemplate = sandbox.url + "/adAPI.php?AdID={zone}"
        configuration.storageDirectory = root
        change(&configuration)
        return configuration
    }

    func start(_ change: (inout BlinkEngageConfiguration) -> Void = { _ in }) throws -> BlinkEngageSDK {
        try BlinkEngageSDK(configuration: configuration(change))
    }

    /// The recorded requests whose path contains `fragment`.
    func requests(to fragment: String) throws -> [[String: Any]] {
        try sandbox.requests().filter { ($0["path"] as? String)?.contains(fragment) == true }
    }

    /// Waits until the sandbox has recorded `count` requests to `fragment` (the SDK sends them on its threads);
    /// gives up after about a minute, and the test's own expectations then fail.
    func waitForRequests(to fragment: String, count: Int) throws {
        var polls = 0
        while try requests(to: fragment).count < count, polls < 6000 {
            polls += 1
            usleep(10_000)
        }
    }
}

/// A thread-safe record of values, for completions that run on the SDK's threads.
final class Recorder<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}

/// One value a handler sets on any thread and a test waits for (about a minute at most, then a test failure).
final class Awaited<Value: Sendable>: @unchecked Sendable {
    // Safe: `value` is read and written only with `condition` locked.
    private let condition = NSCondition()
    private var value: Value?

    func set(_ newValue: Value) {
        condition.lock()
        if value == nil { value = newValue }
        condition.broadcast()
        condition.unlock()
    }

    func wait() -> Value {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(60)
        while value == nil {
            if !condition.wait(until: deadline) { fatalError("nothing arrived within 60 s") }
        }
        return value!
    }
}

extension Result where Failure == BlinkEngageOfferFeedError {
    /// The failure's code, nil for a success.
    var failureCode: BlinkEngageOfferFeedError.Code? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}
