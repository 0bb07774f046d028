import BlinkEngage

/// README.md's Swift snippet ("## Swift"), line for line between the markers: `ReadmeSnippetTests` holds the two
/// together, and this target's build holds the snippet to the surface.
enum ReadmeSnippet {
    static func run() async throws {
        // readme: begin
        var configuration = BlinkEngageConfiguration(apiKey: "YOUR_API_KEY")
        configuration.engageURL = "https://engage.example.com"      // the offer feed
        try BlinkEngageSDK.shared.start(configuration)

        for offer in try await BlinkEngageSDK.shared.fetchOffers(payload: ["placement": "checkout"]) {
            print(offer.title ?? "", offer.clickURL ?? "")
        }
        BlinkEngageSDK.shared.loadOfferFeed { result in /* groups, or BlinkEngageOfferFeedError codes 1 and 2 */ }
        // readme: end
    }
}
