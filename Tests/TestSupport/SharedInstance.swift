import Dispatch

/// Held by every test that uses `BlinkEngageSDK.shared`: the test targets run in one process, and their suites
/// run side by side. A semaphore, not a lock: the test that takes it may resume on another thread.
public let sharedInstanceTurn = DispatchSemaphore(value: 1)
