/// An asynchronous failure as the host sees it: a domain, a code within it, a message and the HTTP status
/// behind it (0 when there was none). Mirrors `be_error`.
public struct ServiceError: Error, Equatable, Sendable {
    public enum Domain: String, Sendable {
        case moments = "BlinkEngageMoments"
        case offerFeed = "BlinkEngageOfferFeed"
        case zoneAd = "BlinkEngageZoneAd"
        case image = "BlinkEngageImage"
        case cancelled = "BlinkEngageCancelled"
    }

    public let domain: Domain
    public let code: Int
    public let message: String
    public let httpStatus: Int

    public init(_ domain: Domain, code: Int, message: String, httpStatus: Int = 0) {
        self.domain = domain
        self.code = code
        // Messages often carry a server's words: escaped and bounded before they reach a host or a terminal.
        self.message = SafeText.clean(message)
        self.httpStatus = httpStatus
    }

    /// The SDK shut down before the operation could complete.
    public static let cancelled = ServiceError(.cancelled, code: 1, message: "the SDK shut down before the operation completed")
}

/// The Moments API error table (docs/PROTOCOL.md section 1).
public enum MomentsErrorCode: Int, Sendable {
    case invalidParameter = 1
    case invalidURL = 2
    case noOffers = 3
    case decoding = 4
    case network = 5
    case httpStatus = 6
}

extension ServiceError {
    static func moments(_ code: MomentsErrorCode, _ message: String, httpStatus: Int = 0) -> ServiceError {
        ServiceError(.moments, code: code.rawValue, message: message, httpStatus: httpStatus)
    }
}
