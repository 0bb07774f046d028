@testable import BlinkEngageCore
import Testing

/// When the delivery thread is signalled, and the lock order debug builds enforce: rules without I/O.
struct DeliveryScheduleTests {
    @Test func aRunningThreadIsNeverSignalledButSeesTheChange() {
        var schedule = DeliverySchedule()
        let answer1 = schedule.reported()
        #expect(!answer1)
        let answer2 = schedule.change(endsNap: true)
        #expect(!answer2)
        #expect(schedule.changed)
        // It would wait: the change makes it run another pass instead, and is taken.
        let answer3 = schedule.willWait(napping: false, reportsPending: false)
        #expect(!answer3)
        #expect(!schedule.changed)
        let answer4 = schedule.willWait(napping: false, reportsPending: false)
        #expect(answer4)
        #expect(schedule.phase == .sleeping)
    }

    @Test func reportsPendingKeepTheThreadRunning() {
        var schedule = DeliverySchedule()
        let answer5 = schedule.willWait(napping: false, reportsPending: true)
        #expect(!answer5)
        #expect(schedule.phase == .running)
    }

    @Test func aSleepingThreadIsSignalledByEveryChangeThatCanSendSomething() {
        var schedule = DeliverySchedule()
        let answer6 = schedule.willWait(napping: false, reportsPending: false)
        #expect(answer6)
        let answer7 = schedule.reported()
        #expect(answer7)
        let answer8 = schedule.change()
        #expect(answer8)
        let answer9 = schedule.change(sendable: false)  // an event behind a batch in flight: its answer signals
        #expect(!answer9)
        schedule.woke()
        #expect(schedule.phase == .running)
        #expect(!schedule.changed)  // woken from sleep, the pass looks at everything
    }

    @Test func aNapEndsEarlyOnlyForAWholeBatchAFlushOrAnAnswer() {
        var schedule = DeliverySchedule()
        let answer10 = schedule.willWait(napping: true, reportsPending: true)  // reports during a window wait for its end
        #expect(answer10)
        #expect(schedule.phase == .napping(reports: 0))
        for _ in 1..<OutboxQueue.maximumBatch {
            let signalled = schedule.reported()
            #expect(!signalled)
        }
        let answer11 = schedule.reported()  // the hundredth: a whole batch
        #expect(answer11)
        #expect(schedule.phase == .napping(reports: 0))
        let answer12 = schedule.change()
        #expect(!answer12)
        let answer13 = schedule.change(endsNap: true)
        #expect(answer13)
        // Napping again in the same window keeps the count.
        let answer14 = schedule.reported()
        #expect(!answer14)
        let answer15 = schedule.willWait(napping: true, reportsPending: false)
        #expect(answer15)
        #expect(schedule.phase == .napping(reports: 1))
        schedule.woke()
        #expect(schedule.changed)  // what came during the nap is still to be looked at
        let answer16 = schedule.willWait(napping: false, reportsPending: false)
        #expect(!answer16)
    }

    @Test func theLockOrderAllowsOnlyHigherRanksInside() {
        #expect(LockRank.allows(.intake, after: .outboxState))
        #expect(LockRank.allows(.ownership, after: nil))
        #expect(!LockRank.allows(.outboxState, after: .intake))
        #expect(!LockRank.allows(.storage, after: .storage))
        #expect(!LockRank.allows(.storage, after: .database))
    }
}
