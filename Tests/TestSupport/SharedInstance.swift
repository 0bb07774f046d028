/// Taken by every test that uses `BlinkEngageSDK.shared`: the test targets run in one process, and their suites run
/// side by side. An actor that suspends the waiting task, never a lock or a semaphore: a blocked thread of the
/// cooperative pool (2 threads on a 2-core machine) could starve the tasks the holder waits for.
public actor SharedInstanceTurn {
    public static let shared = SharedInstanceTurn()

    private var taken = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Waits (suspended) until no other test holds the shared instance, then holds it.
    public func take() async {
        guard taken else {
            taken = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Lets the next waiting test have it.
    public func give() {
        if waiters.isEmpty { taken = false } else { waiters.removeFirst().resume() }
    }

    /// Runs `body` holding the shared instance, and gives it back whatever `body` does.
    public static func holding<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        await shared.take()
        do {
            let result = try await body()
            await shared.give()
            return result
        } catch {
            await shared.give()
            throw error
        }
    }
}
