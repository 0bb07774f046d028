@testable import BlinkEngageCore
import Foundation
import Testing

/// The child a fork leaves: what `test_fork.c` shows over hundreds of forks of a busy SDK, here in the one case
/// that hung a child, made to happen.
@Suite(.serialized) struct ForkGateTests {
    /// The child's first thread inherits the Swift runtime's cached thread id of the thread that forked. Holding a
    /// lazy global's lock under that id while another thread of the child waits for it hung both for ever, until
    /// the gate's child handler cleared the cache. Here the first thread runs a slow initialiser while a second
    /// thread asks for the same global; an alarm ends a child that hangs.
    @Test func aChildsFirstThreadTakesSwiftLocksUnderItsOwnThreadID() {
        _ = ForkGate.enter()  // sets the gate up (its handlers) as any library call does
        ForkGate.leave()
        _ = ForkGateTestGlobals.warm  // this thread's id is now cached, as a host's forking thread's would be
        let child = fork()
        if child == 0 {
            // The alarm ends a hang: the runner's thread may have it blocked or handled, and the child inherits both.
            var alarmOnly = sigset_t()
            sigemptyset(&alarmOnly)
            sigaddset(&alarmOnly, SIGALRM)
            pthread_sigmask(SIG_UNBLOCK, &alarmOnly, nil)
            signal(SIGALRM, SIG_DFL)
            alarm(10)
            var thread = pthread_t()
            guard pthread_create(&thread, nil, { _ in
                usleep(50_000)  // the first thread is inside the initialiser by now
                _ = ForkGateTestGlobals.slow
                return nil
            }, nil) == 0 else { _exit(3) }
            let value = ForkGateTestGlobals.slow
            pthread_join(thread, nil)
            _exit(value == 42 ? 0 : 4)
        }
        #expect(child > 0)
        var status: Int32 = 0
        #expect(waitpid(child, &status, 0) == child)
        let signal = status & 0x7f, code = (status >> 8) & 0xff
        #expect(signal == 0, "the child was ended by signal \(signal) (\(SIGALRM) is the alarm: it hung)")
        #expect(code == 0)
    }
}

/// Lazy globals for the fork test: `warm` is first read before the fork, `slow` only in the child.
enum ForkGateTestGlobals {
    static let warm: Int = { 1 }()
    static let slow: Int = {
        usleep(200_000)
        return 42
    }()
}
