/// Whether the delivery thread must be signalled: the one record of whether it runs, naps out a batch window or
/// sleeps, and of whether something changed since it last looked. It lives in `OutboxIntake`, under the intake's
/// lock, so a report asks it without waiting for the queue's lock. No I/O (DeliveryScheduleTests).
///
/// A nap ends by itself at the end of the window: only what cannot wait for that (a flush, an answer, a whole
/// batch's worth of reports) signals it. Sleep ends only when signalled: every change signals it.
struct DeliverySchedule: Equatable, Sendable {
    enum Phase: Equatable, Sendable {
        case running
        /// Waiting out the batch window; `reports` counts those handed over since the nap began.
        case napping(reports: Int)
        /// Waiting with nothing due soon.
        case sleeping
    }

    private(set) var phase = Phase.running
    /// A change the thread has not looked at yet (reports pending are the intake's to say).
    private(set) var changed = false

    /// A report was handed over: whether to signal. A nap ends early for a whole batch's worth only.
    mutating func reported() -> Bool {
        switch phase {
        case .running: return false
        case .sleeping: return true
        case .napping(let reports):
            let whole = reports + 1 >= OutboxQueue.maximumBatch
            phase = .napping(reports: whole ? 0 : reports + 1)
            return whole
        }
    }

    /// Something changed that the thread must look at: whether to signal. `endsNap`: it cannot wait for the
    /// window (a flush; an answer, after which the next batch may be whole). `sendable`: false when nothing can
    /// go out before the thread wakes anyway (an event behind a batch in flight).
    mutating func change(endsNap: Bool = false, sendable: Bool = true) -> Bool {
        changed = true
        switch phase {
        case .running: return false
        case .sleeping: return sendable
        case .napping: return endsNap
        }
    }

    /// The thread is done with a pass and would wait (`napping`: out the batch window). Returns false, and takes
    /// the change, when it must run another pass instead: something changed or reports wait, and it is not
    /// napping (what comes during a window waits for the window's end).
    mutating func willWait(napping: Bool, reportsPending: Bool) -> Bool {
        if !napping, changed || reportsPending {
            changed = false
            return false
        }
        if napping {
            if case .napping = phase {} else { phase = .napping(reports: 0) }
        } else {
            phase = .sleeping
        }
        return true
    }

    /// The thread woke. From sleep it looks at everything now; from a nap, what changed during it stays to be
    /// looked at.
    mutating func woke() {
        if phase == .sleeping { changed = false }
        phase = .running
    }
}
