/// A transport that tells the flight recorder about every request it completes, over another transport. Made
/// only when the recorder is on: without it requests take no detour.
final class RecordingTransport: Transport {
    private let base: any Transport
    private let recorder: FlightRecorder

    init(_ base: any Transport, recorder: FlightRecorder) {
        self.base = base
        self.recorder = recorder
    }

    func send(_ request: HTTPRequest, completion: @escaping HTTPCompletion) {
        let started = MonotonicClock.now()
        var request = request
        request.recordsTimings = true
        base.send(request) { [recorder, request] outcome in
            recorder.request(request, outcome: outcome, elapsedNanoseconds: MonotonicClock.now() &- started)
            completion(outcome)
        }
    }

    func schedule(afterNanoseconds nanoseconds: UInt64, _ action: @escaping @Sendable () -> Void) {
        base.schedule(afterNanoseconds: nanoseconds, action)
    }

    var requestsSent: UInt64 { base.requestsSent }

    func shutdown() { base.shutdown() }
}
