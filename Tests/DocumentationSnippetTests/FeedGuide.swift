import BlinkEngage
import Foundation

/// The client-side offer feed guide's code, as an integrator pastes it into an app. UIKit's types are left out: a
/// view controller is handed to `present`, a closure of the test's. Lines marked `guide: verbatim` are the guide's
/// own, unchanged; the other calls are the ones the guide documents (`loadOfferFeed(completion:)` returning a feed
/// or an error in domain BlinkEngageOfferFeed, `offerDetailsViewController(for:)` and `offerGroupViewController(for:)`
/// returning nil for objects no longer part of the newest load), written as the guide's prose describes them. A
/// change of the Swift surface that breaks one of them breaks the build of this target.
enum FeedGuide {
    /// "Reporting interactions".
    static func reportInteractions(offer: BlinkEngageOffer, group: BlinkEngageOfferGroup) {
        // guide: verbatim
        BlinkEngageSDK.shared.reportOfferFeedEvent(
            BlinkEngageOfferFeedEvent(offer: offer, type: .didAppear)
        )
        BlinkEngageSDK.shared.reportOfferFeedEvent(
            BlinkEngageOfferFeedEvent(group: group, type: .viewAll)
        )
        // guide: end
    }

    /// "Loading the feed": the completion returns either a feed or an error in domain BlinkEngageOfferFeed.
    static func loadFeed(show: @escaping @Sendable (BlinkEngageOfferFeed) -> Void,
                         hide: @escaping @Sendable (String) -> Void) {
        BlinkEngageSDK.shared.loadOfferFeed { result in
            switch result {
            case .success(let feed):
                show(feed)
            case .failure(let error):
                let error = error as NSError
                if error.domain == "BlinkEngageOfferFeed" && error.code == 1 {
                    hide("check the SDK is started and a user identity is set")
                } else {
                    hide("feed unavailable")
                }
            }
        }
    }

    /// "Showing an offer" and "Showing a group": nil for objects that are no longer part of the newest load.
    static func open(offer: BlinkEngageOffer, group: BlinkEngageOfferGroup,
                     present: (BlinkEngageOfferScreen) -> Void) {
        if let viewController = BlinkEngageSDK.shared.offerDetailsViewController(for: offer) {
            present(viewController)
        }
        if let viewController = BlinkEngageSDK.shared.offerGroupViewController(for: group) {
            present(viewController)
        }
    }
}
