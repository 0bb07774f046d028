internal import BlinkEngageCore

/// A call the SDK refused at once: nothing was started and no completion is owed.
public enum BlinkEngageError: Error, Equatable, Sendable {
    /// An argument is out of range or malformed; the message names it.
    case invalidArgument(String)
    /// The SDK or object cannot do this now: shut down, used in a forked child, a finished screen.
    case invalidState(String)
    /// The instance was never started (``BlinkEngageSDK/start(_:)``).
    case notStarted
    /// ``BlinkEngageSDK/start(_:)`` on an instance that runs already.
    case alreadyStarted
    /// A file or directory the call needs is not there.
    case notFound(String)
    /// The storage directory cannot be used.
    case io(String)
    /// The call's deadline passed (``BlinkEngageSDK/flush(timeoutMilliseconds:)``).
    case timeout(String)
    /// Memory ran out.
    case noMemory(String)
    /// The SDK shut down before the operation completed.
    case cancelled

    init(_ failure: EngineFailure) {
        switch failure {
        case .invalidArgument(let message): self = .invalidArgument(message)
        case .invalidState(let message): self = .invalidState(message)
        case .notFound(let message): self = .notFound(message)
        case .io(let message): self = .io(message)
        case .timeout(let message): self = .timeout(message)
        case .noMemory(let message): self = .noMemory(message)
        }
    }

    /// What went wrong, for a log.
    public var message: String {
        switch self {
        case .invalidArgument(let message), .invalidState(let message), .notFound(let message), .io(let message),
             .timeout(let message), .noMemory(let message):
            return message
        case .notStarted: return "the SDK has not been started"
        case .alreadyStarted: return "the SDK has been started already"
        case .cancelled: return ServiceError.cancelled.message
        }
    }
}

/// Why the offer feed could not be loaded: domain `BlinkEngageOfferFeed`, codes 1 and 2.
public struct BlinkEngageOfferFeedError: Error, Equatable, Sendable {
    /// The error domain, as NSError-based callers see it.
    public static let domain = "BlinkEngageOfferFeed"

    /// The codes of the `BlinkEngageOfferFeed` domain.
    public enum Code: Int, Sendable {
        /// No registered user and no registration in progress: set the user's identity first.
        case noUser = 1
        /// The fetch failed or the feed is off remotely: treat the feed as off; do not retry in a loop.
        case unavailable = 2
    }

    /// Why the feed could not be loaded.
    public let code: Code
    /// What went wrong, for a log.
    public let message: String
    /// The HTTP status behind the error, 0 when there was none.
    public let httpStatus: Int

    /// An error with `code`, `message` and the HTTP status behind it.
    public init(code: Code, message: String, httpStatus: Int = 0) {
        self.code = code
        self.message = message
        self.httpStatus = httpStatus
    }

    /// A load on an SDK that is not started (or was shut down).
    static let notStarted = BlinkEngageOfferFeedError(
        code: .noUser, message: "no registered user: check the SDK is started and a user identity is set")
}

/// Why a Moments fetch failed (domain `BlinkEngageMoments`, codes 1 to 6 in this order).
public enum BlinkEngageMomentsError: Error, Equatable, Sendable {
    /// A parameter is not one the API takes (`loyaltyBoost` outside "0"/"1"/"2", `creative` outside "0"/"1",
    /// an empty `campaignId` or payload key); no request was made.
    case invalidParameter(String)
    /// The configured Moments URL does not make a valid request URL.
    case invalidURL(String)
    /// The answer had no offers.
    case noOffers
    /// The answer could not be decoded.
    case decodingError(String)
    /// The request did not complete: no connection, a timeout, TLS.
    case networkError(String)
    /// The service answered with a status outside 2xx.
    case httpStatus(Int, String)

    /// The code of the `BlinkEngageMoments` domain.
    public var code: Int {
        switch self {
        case .invalidParameter: return 1
        case .invalidURL: return 2
        case .noOffers: return 3
        case .decodingError: return 4
        case .networkError: return 5
        case .httpStatus: return 6
        }
    }
}

/// Why a zone ad or an image could not be fetched: the domain (`BlinkEngageZoneAd`, `BlinkEngageImage`), the
/// code of its table in the C header (`BE_ZONE_AD_ERROR_*`, `BE_IMAGE_ERROR_*`) and a message.
public struct BlinkEngageServiceError: Error, Equatable, Sendable {
    /// The error domain: `BlinkEngageZoneAd` or `BlinkEngageImage`.
    public let domain: String
    /// The code within the domain.
    public let code: Int
    /// What went wrong, for a log.
    public let message: String
    /// The HTTP status behind the error, 0 when there was none.
    public let httpStatus: Int
}

extension ServiceError {
    /// This error as the Swift surface gives it for a feed load: every failure is code 1 or 2 of its domain (a
    /// shutdown during the load is code 2: the feed did not come).
    var feedError: BlinkEngageOfferFeedError {
        if domain == .cancelled { return BlinkEngageOfferFeedError(code: .unavailable, message: "the SDK shut down before the feed loaded") }
        return BlinkEngageOfferFeedError(code: domain == .offerFeed && code == 1 ? .noUser : .unavailable, message: message, httpStatus: httpStatus)
    }

    /// This error as the Swift surface throws it for a Moments fetch.
    var momentsError: any Error {
        if domain == .cancelled { return BlinkEngageError.cancelled }
        switch MomentsErrorCode(rawValue: code) {
        case .invalidParameter: return BlinkEngageMomentsError.invalidParameter(message)
        case .invalidURL: return BlinkEngageMomentsError.invalidURL(message)
        case .noOffers: return BlinkEngageMomentsError.noOffers
        case .decoding: return BlinkEngageMomentsError.decodingError(message)
        case .httpStatus: return BlinkEngageMomentsError.httpStatus(httpStatus, message)
        case .network, nil: return BlinkEngageMomentsError.networkError(message)
        }
    }

    /// This error as the Swift surface throws it for a zone ad or an image.
    var serviceError: any Error {
        if domain == .cancelled { return BlinkEngageError.cancelled }
        return BlinkEngageServiceError(domain: domain.rawValue, code: code, message: message, httpStatus: httpStatus)
    }
}
