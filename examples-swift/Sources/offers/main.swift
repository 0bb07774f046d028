// Prints the offers of the checkout moment: swift run offers [MOMENTS_URL]
// (the local sandbox's URL with /native/v4, or the production service when none is given).
import BlinkEngage

var configuration = BlinkEngageConfiguration(apiKey: "demo-key")
if CommandLine.arguments.count > 1 { configuration.momentsURL = CommandLine.arguments[1] }
configuration.storageDirectory = "/tmp/blinkengage-swift-example"

let sdk = try BlinkEngageSDK(configuration: configuration)
do {
    let offers = try await sdk.fetchOffers(payload: ["placement": "checkout"])
    for offer in offers {
        print("\(offer.id): \(offer.title ?? "(no title)") -> \(offer.clickURL ?? "(no link)")")
    }
    print("styles: popup background \(offers.styles["popup.background"] ?? "(none)")")
} catch let error as BlinkEngageMomentsError {
    print("no offers: \(error) (BlinkEngageMoments code \(error.code))")
}
sdk.shutdown()
