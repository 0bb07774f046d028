// Queued-and-delivered events per second through the durable outbox, side by side with a naive sender
// (one blocking request per event, nothing stored), in the same run against the same loopback server; and the
// time one durable enqueue takes.
//
//   OutboxBench SANDBOX_URL [EVENTS]
import BlinkEngageCore
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    print("usage: OutboxBench SANDBOX_URL [EVENTS]")
    exit(2)
}
let url = arguments[1]
let count = arguments.count > 2 ? Int(arguments[2])! : 3000
let rounds = 3

func event(_ id: String) -> String {
    #"{"id":"\#(id)","type":"did_appear","occurred_at":"2026-12-02T16:00:00.000Z","feed_id":"f_demo_1","group_id":"g_1","group_position":0,"offer_id":"4001","offer_position":2}"#
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = MonotonicClock.now()
    try body()
    return Double(MonotonicClock.now() - start) / 1e9
}

/// The outbox: every event stored durably, delivered in batches by the background thread.
func durableRound(_ round: Int) throws -> (total: Double, enqueue: Double) {
    let root = NSTemporaryDirectory() + "be-bench-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    var configuration = SDKConfiguration(apiKey: "demo-key")
    configuration.storageRoot = root
    try configuration.setEngageURL(url)
    let sdk = try SDK(configuration: configuration)
    defer { sdk.shutdown(timeoutMilliseconds: 5000) }
    var enqueue = 0.0
    let total = try seconds {
        enqueue = try seconds {
            for index in 0..<count { try sdk.outbox.enqueueEvent(json: event("d\(round)-\(index)"), identity: nil) }
        }
        try sdk.flush(timeoutMilliseconds: 600_000)
    }
    return (total, enqueue)
}

/// The naive alternative: one blocking POST per event, keep-alive, nothing stored.
func naiveRound(_ round: Int, transport: Transport) throws -> Double {
    try seconds {
        for index in 0..<count {
            let done = DispatchSemaphore(value: 0)
            let request = HTTPRequest(
                method: .post, url: url + "/v1/events?api_key=demo-key",
                headers: [("Content-Type", "application/json"), ("Accept", "application/json")],
                body: Array(#"{"events":[\#(event("n\(round)-\(index)"))]}"#.utf8), timeoutMilliseconds: 30_000)
            let failed = Locked(false)
            transport.send(request) { outcome in
                if case .success(let response) = outcome, response.status == 200 {} else { failed.withLock { $0 = true } }
                done.signal()
            }
            done.wait()
            if failed.withLock({ $0 }) { throw EngineFailure.io("naive send failed") }
        }
    }
}

let transport = try Transport()
var durable: [Double] = [], enqueues: [Double] = [], naive: [Double] = []
for round in 0..<rounds {
    let (total, enqueue) = try durableRound(round)
    durable.append(total)
    enqueues.append(enqueue)
    naive.append(try naiveRound(round, transport: transport))
}
transport.shutdown()

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
let durableRate = Double(count) / median(durable)
let naiveRate = Double(count) / median(naive)
print("events per round: \(count), rounds: \(rounds) (medians)")
print(String(format: "durable outbox:  %8.0f events/s queued and delivered", durableRate))
print(String(format: "naive sender:    %8.0f events/s (one blocking request each, nothing stored)", naiveRate))
print(String(format: "ratio:           %8.1fx", durableRate / naiveRate))
print(String(format: "durable enqueue: %8.1f us per event (written and renamed into place before returning)", median(enqueues) / Double(count) * 1e6))
