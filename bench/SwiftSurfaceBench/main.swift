// The Swift surface's side of `make bench`, against the C API's (bench/fetch_blinkengage.c,
// bench/report_blinkengage.c) on the same nginx:
//   SwiftSurfaceBench fetch MOMENTS_URL CALLS [async | async-main]
//                                                      fetch + read every field the C contender reads; dispatch
//                                                      mode with a completion handler, or `try await` with
//                                                      handlers on the SDK's thread: off any actor (async: each
//                                                      await resumes on the global executor) or on the main
//                                                      actor (async-main)
//   SwiftSurfaceBench report ENGAGE_URL COUNT          reportOfferFeedEvent(_:) of did_tap events, each timed
// Prints "median_us p99_us offers checksum" like the C contenders ("median_us p99_us count 0" for report).
import BlinkEngage
import Glibc
import Synchronization

func nanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

func report(_ costs: [UInt64], _ count: Int, _ checksum: Int) {
    let sorted = costs.sorted()
    let median = Double(sorted[sorted.count / 2]) / 1000, p99 = Double(sorted[Int(0.99 * Double(sorted.count - 1))]) / 1000
    print("\(median) \(p99) \(count) \(checksum)")
}

/// What the C contender reads of an offer, as lengths: the named fields, the same fifteen scalars, the JSON.
let scalarKeys = ["campaign_id", "mini_text", "pixel", "adv_pixel_url", "useraction_cta", "useraction_url", "short_headline",
                  "short_description", "advertiser_name", "is_loyaltyboost", "loyaltyboost_requirements", "save_for_later_url",
                  "offer_description", "offerwall_url", "qr_code_img"]

func read(_ response: BlinkEngageMomentsResponse) -> Int {
    var sum = 0
    for offer in response {
        sum += offer.id.utf8.count + (offer.title?.utf8.count ?? 0) + (offer.description?.utf8.count ?? 0)
        sum += (offer.imageURL?.utf8.count ?? 0) + (offer.clickURL?.utf8.count ?? 0) + (offer.ctaYes?.utf8.count ?? 0)
        sum += (offer.ctaNo?.utf8.count ?? 0) + (offer.termsHTML?.utf8.count ?? 0)
        for key in scalarKeys { sum += offer[field: key]?.utf8.count ?? 0 }
        sum += offer.json.utf8.count
    }
    return sum
}

func storage() -> String {
    var template = Array("/tmp/be-swift-bench-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
}

/// One answer handed from the SDK's thread to the waiting loop.
final class Box: Sendable {
    let done = Mutex(Result<BlinkEngageMomentsResponse, any Error>?.none)
}

/// `calls` awaited fetches, each read, isolated to `actor`: the main actor (a host's UI code), or nil, off any
/// actor (a host's background task), where each await resumes on the global executor. Their costs, the offers of
/// the last, the checksum.
func fetchAwaiting(_ sdk: BlinkEngageSDK, _ calls: Int, on actor: isolated (any Actor)?) async throws -> ([UInt64], Int, Int) {
    var costs: [UInt64] = [], offers = 0, checksum = 0
    costs.reserveCapacity(calls)
    for _ in 0..<calls {
        let start = nanoseconds()
        let response = try await sdk.fetchOffers(payload: ["placement": "checkout"])
        offers = response.count
        checksum += read(response)
        costs.append(nanoseconds() - start)
    }
    return (costs, offers, checksum)
}

let arguments = CommandLine.arguments
guard arguments.count >= 4, let calls = Int(arguments[3]), calls > 0 else {
    print("usage: SwiftSurfaceBench fetch|report URL CALLS [async | async-main]")
    exit(2)
}
var configuration = BlinkEngageConfiguration(apiKey: "bench-key")
configuration.storageDirectory = storage()
var costs: [UInt64] = []
costs.reserveCapacity(calls)

switch arguments[1] {
case "fetch":
    configuration.momentsURL = arguments[2]
    let useAsync = arguments.count > 4 && arguments[4].hasPrefix("async")
    configuration.callbackMode = useAsync ? .sdkThread : .dispatch
    let sdk = try BlinkEngageSDK(configuration: configuration)
    var offers = 0, checksum = 0
    if useAsync {
        let actor: (any Actor)? = arguments[4] == "async-main" ? MainActor.shared : nil
        (costs, offers, checksum) = try await fetchAwaiting(sdk, calls, on: actor)
    } else {
        let box = Box()
        var ready = pollfd(fd: sdk.dispatchDescriptor, events: Int16(POLLIN), revents: 0)
        for _ in 0..<calls {
            let start = nanoseconds()
            try sdk.fetchOffers(payload: ["placement": "checkout"]) { result in box.done.withLock { $0 = result } }
            var answer: Result<BlinkEngageMomentsResponse, any Error>?
            while answer == nil {
                _ = poll(&ready, 1, 1000)
                sdk.dispatch()
                answer = box.done.withLock { done in defer { done = nil }; return done }
            }
            let response = try answer!.get()
            offers = response.count
            checksum += read(response)
            costs.append(nanoseconds() - start)
        }
    }
    report(costs, offers, checksum)
    sdk.shutdown(timeoutMilliseconds: 0)
case "report":
    configuration.engageURL = arguments[2]
    let sdk = try BlinkEngageSDK(configuration: configuration)
    try sdk.setUserIdentity("bench-user")
    let feed = try await sdk.loadOfferFeed()
    guard let offer = feed.groups.first?.offers.first else {
        print("the feed has no offer")
        exit(1)
    }
    let event = BlinkEngageOfferFeedEvent(offer: offer, type: .didTap)
    for _ in 0..<calls {
        let start = nanoseconds()
        guard sdk.reportOfferFeedEvent(event) else {
            print("a report was not recorded")
            exit(1)
        }
        costs.append(nanoseconds() - start)
    }
    report(costs, calls, 0)
    sdk.shutdown(timeoutMilliseconds: 0)
default:
    print("usage: SwiftSurfaceBench fetch|report URL CALLS [async | async-main]")
    exit(2)
}
