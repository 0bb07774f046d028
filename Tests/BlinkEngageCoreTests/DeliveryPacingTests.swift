@testable import BlinkEngageCore
import Testing

/// When the delivery thread chooses and when it naps, as tables of steps on a clock of milliseconds; no I/O, no
/// threads (sentry-native's test_retry.c, for our pacing).
struct DeliveryPacingTests {
    static let ms: UInt64 = 1_000_000
    static let start: UInt64 = 1_000 * ms  // a monotonic clock some time after boot

    enum Action: Sendable {
        /// The owner looks at `at` ms; when it proceeds it `sends` something or not, having `took` reports.
        case owner(at: UInt64, hurry: Bool = false, sends: Bool = true, took: Bool = true)
        /// A process that only stores looks at `at` ms, having `took` reports or not.
        case storer(at: UInt64, took: Bool)
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let steps: [(Action, DeliveryPacing.Step)]
        var testDescription: String { name }
    }

    static func nap(_ until: UInt64) -> DeliveryPacing.Step { .nap(until: start + until * ms) }

    @Test(arguments: [
        Row(name: "the first report goes at once, the next waits out the window", steps: [
            (.owner(at: 0), .proceed),
            (.owner(at: 1), nap(5)),
            (.owner(at: 4), nap(5)),
            (.owner(at: 5), .proceed),
        ]),
        Row(name: "a flush or a whole batch does not wait", steps: [
            (.owner(at: 0), .proceed),
            (.owner(at: 1, hurry: true), .proceed),
            (.owner(at: 2), nap(6)),
        ]),
        Row(name: "reports that could not go yet start the window too", steps: [
            (.owner(at: 0, sends: false, took: true), .proceed),
            (.owner(at: 3), nap(5)),
        ]),
        Row(name: "a wake-up with nothing sent and nothing taken leaves the window alone", steps: [
            (.owner(at: 0), .proceed),
            (.owner(at: 7, sends: false, took: false), .proceed),
            (.owner(at: 8), .proceed),
        ]),
        Row(name: "a process that only stores moves a burst once, after the window", steps: [
            (.storer(at: 0, took: true), nap(5)),
            (.storer(at: 2, took: true), nap(7)),
            (.storer(at: 7, took: false), .proceed),
            (.storer(at: 9, took: false), .proceed),
        ]),
    ])
    func paces(row: Row) {
        var pacing = DeliveryPacing()
        for (index, (action, expected)) in row.steps.enumerated() {
            let step: DeliveryPacing.Step
            switch action {
            case .owner(let at, let hurry, let sends, let took):
                step = pacing.owner(now: Self.start + at * Self.ms, hurry: hurry)
                if step == .proceed { pacing.chose(now: Self.start + at * Self.ms, sent: sends, took: took) }
            case .storer(let at, let took):
                step = pacing.storer(now: Self.start + at * Self.ms, took: took)
            }
            #expect(step == expected, "step \(index) of \(row.name)")
        }
    }
}
