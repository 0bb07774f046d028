@testable import BlinkEngageCore
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The dispatch-mode queue's descriptor: readable while jobs wait, quiet once they ran, never a job left without
/// it, with jobs queued on other threads while the host dispatches (the byte is written outside the lock).
struct CallbackQueueTests {
    @Test func theDescriptorIsReadableWhileJobsWaitAndQuietAfter() throws {
        let queue = try CallbackQueue(mode: .dispatch)
        defer { queue.close() }
        let ran = Locked(0)
        #expect(!isReadable(queue.readinessDescriptor))
        queue.enqueue { ran.withLock { $0 += 1 } }
        queue.enqueue { ran.withLock { $0 += 1 } }
        #expect(isReadable(queue.readinessDescriptor))
        #expect(queue.dispatch(maximum: 1, driving: nil) == 1)
        #expect(isReadable(queue.readinessDescriptor))  // one left
        #expect(queue.dispatch(maximum: 0, driving: nil) == 1)
        #expect(!isReadable(queue.readinessDescriptor))
        #expect(queue.dispatch(maximum: 0, driving: nil) == 0)
        #expect(ran.withLock { $0 } == 2)
    }

    /// Four threads queue 2,000 jobs while this one waits on the descriptor (10 s at most per wait: a job left
    /// without its byte fails here) and dispatches. Every job runs once; a byte that landed after its job ran
    /// wakes one dispatch that runs nothing, and then the descriptor is quiet.
    @Test func jobsQueuedOnOtherThreadsAlwaysWakeTheHost() throws {
        let queue = try CallbackQueue(mode: .dispatch)
        defer { queue.close() }
        let producers = 4, perProducer = 500
        let ran = Locked(0)
        var threads: [NativeThread] = []
        for index in 0..<producers {
            threads.append(try NativeThread(name: "be-test-\(index)") {
                for count in 0..<perProducer {
                    queue.enqueue { ran.withLock { $0 += 1 } }
                    if count % 7 == 0 { sched_yield() }
                }
            })
        }
        var missedWakes = 0
        while ran.withLock({ $0 }) < producers * perProducer {
            guard isReadable(queue.readinessDescriptor, within: 10_000) else { missedWakes += 1; break }
            _ = queue.dispatch(maximum: 0, driving: nil)
        }
        for thread in threads { thread.join() }
        #expect(missedWakes == 0)
        #expect(ran.withLock { $0 } == producers * perProducer)
        // A late byte, if any, is read by the next dispatch, which finds no job.
        if isReadable(queue.readinessDescriptor) { #expect(queue.dispatch(maximum: 0, driving: nil) == 0) }
        #expect(!isReadable(queue.readinessDescriptor))
    }
}
