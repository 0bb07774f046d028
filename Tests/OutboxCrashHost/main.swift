// A small host built on the engine, for the crash and two-process tests of the outbox.
//
//   OutboxCrashHost enqueue ROOT URL FROM TO PREFIX   queue events PREFIX-i and beacons URL/b/PREFIX-i for i in
//                                                     FROM..<TO, printing "queued i" once both are durable; then
//                                                     deliver until the directory holds no items, print "done"
//   OutboxCrashHost drain ROOT URL SECONDS            deliver until the directory holds no items, or give up
import BlinkEngageCore
#if canImport(Glibc)
import Glibc
#endif

func say(_ line: String) {
    print(line)
    fflush(nil)  // the test reads progress up to the instant it kills us
}

/// Rows left in the shared database; an unreadable store counts as "some left" (look again).
func itemsLeft(in sdk: SDK) -> Int { sdk.outbox.storedItemCount() ?? 1 }

let arguments = CommandLine.arguments
guard arguments.count >= 5 else {
    say("usage: OutboxCrashHost enqueue ROOT URL FROM TO PREFIX | drain ROOT URL SECONDS")
    exit(2)
}
var configuration = SDKConfiguration(apiKey: "demo-key")
configuration.storageRoot = arguments[2]
try configuration.setEngageURL(arguments[3])
configuration.timeoutMilliseconds = 5000
// Killed at random instants, a host often dies while starting: the crash-loop breaker would then start the next
// one in safe or inert mode, which is what test_breaker tests. Here the outbox is under test.
configuration.crashLoopThreshold = 0
if getenv("BE_HOST_LOG") != nil {  // the SDK's log on stderr, to follow a failing run
    configuration.logMinimumLevel = .debug
    configuration.logHandler = { level, message in
        let line = "[\(MonotonicClock.now() / 1_000_000) ms] \(level) \(message)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }
}
let sdk = try SDK(configuration: configuration)
guard sdk.storageDirectory != nil else { exit(3) }

var deadline = MonotonicClock.now() + 600 * 1_000_000_000
switch arguments[1] {
case "enqueue":
    let (from, to, prefix) = (Int(arguments[4])!, Int(arguments[5])!, arguments[6])
    for index in from..<to {
        try sdk.outbox.enqueueEvent(json: #"{"id":"\#(prefix)-\#(index)","type":"did_appear"}"#, identity: nil)
        try sdk.outbox.enqueueBeacon(url: "\(arguments[3])/b/\(prefix)-\(index)")
        say("queued \(index)")
    }
case "drain":
    deadline = MonotonicClock.now() + UInt64(Int(arguments[4])!) * 1_000_000_000
default:
    exit(2)
}
while itemsLeft(in: sdk) > 0 {
    guard MonotonicClock.now() < deadline else {
        say("gave up with \(itemsLeft(in: sdk)) items left")
        exit(1)
    }
    try? sdk.flush(timeoutMilliseconds: 1000)
    if !sdk.outbox.isOwner { usleep(50_000) }  // another process delivers; look again shortly
}
let statistics = sdk.outbox.statistics
say("done: delivered \(statistics.eventsDelivered) events, \(statistics.beaconsDelivered) beacons; corrupt \(statistics.corruptRecords)")
sdk.shutdown(timeoutMilliseconds: 1000)
