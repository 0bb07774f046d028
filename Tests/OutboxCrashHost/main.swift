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

func itemsLeft(in directory: String) -> Int {
    guard let stream = opendir(directory + "/outbox") else { return 0 }
    defer { closedir(stream) }
    var count = 0
    while let entry = readdir(stream) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        if name.hasSuffix(".item") { count += 1 }
    }
    return count
}

let arguments = CommandLine.arguments
guard arguments.count >= 5 else {
    say("usage: OutboxCrashHost enqueue ROOT URL FROM TO PREFIX | drain ROOT URL SECONDS")
    exit(2)
}
var configuration = SDKConfiguration(apiKey: "demo-key")
configuration.storageRoot = arguments[2]
try configuration.setEngageURL(arguments[3])
configuration.timeoutMilliseconds = 5000
let sdk = try SDK(configuration: configuration)
guard let directory = sdk.storageDirectory else { exit(3) }

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
while itemsLeft(in: directory) > 0 {
    guard MonotonicClock.now() < deadline else {
        say("gave up with \(itemsLeft(in: directory)) items left")
        exit(1)
    }
    try? sdk.flush(timeoutMilliseconds: 1000)
    if !sdk.outbox.isOwner { usleep(50_000) }  // another process delivers; look again shortly
}
let statistics = sdk.outbox.statistics
say("done: delivered \(statistics.eventsDelivered) events, \(statistics.beaconsDelivered) beacons; corrupt \(statistics.corruptRecords)")
sdk.shutdown(timeoutMilliseconds: 1000)
