// NSError-based callers (Objective-C, `error as NSError`) see the documented domains and codes. Only where
// Foundation exists; the rest of the module does without it.
#if canImport(Foundation)
import Foundation

extension BlinkEngageOfferFeedError: CustomNSError {
    public static var errorDomain: String { domain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
}

extension BlinkEngageMomentsError: CustomNSError {
    public static var errorDomain: String { "BlinkEngageMoments" }
    public var errorCode: Int { code }
    public var errorUserInfo: [String: Any] {
        switch self {
        case .invalidParameter(let message), .invalidURL(let message), .decodingError(let message),
             .networkError(let message), .httpStatus(_, let message):
            return [NSLocalizedDescriptionKey: message]
        case .noOffers: return [NSLocalizedDescriptionKey: "the answer had no offers"]
        }
    }
}
#endif
