
/// A feed event the host is about to report: what happened and where, copied from the offer or group when
/// created, so it stays valid after the feed is gone (C-API.md, feed events).
public struct FeedEvent: Sendable, Equatable {
    public enum Kind: Int, Sendable {
        case didAppear = 0, didTap = 1, viewAll = 2
        var wireName: String {
            switch self {
            case .didAppear: return "did_appear"
            case .didTap: return "did_tap"
            case .viewAll: return "view_all"
            }
        }
    }

    public let kind: Kind
    public let placement: FeedPlacement
    public let offerID: String?
    /// Fired with a `did_appear`: the offer's first-party `pixel`, and its advertiser's `adv_pixel_url` (a third
    /// party, which the user's privacy choices may withhold: `SDK.impressionBeacons` decides).
    public let pixelURL: String?
    public let advertiserPixelURL: String?

    /// Both impression beacons, as the offer gives them.
    public var impressionURLs: [String] { [pixelURL, advertiserPixelURL].compactMap { $0 } }

    /// `did_appear` and `did_tap` take a feed offer; nil for the wrong kind or an offer from no feed.
    public init?(offer: Offer, kind: Kind) {
        guard kind != .viewAll, let placement = offer.placement else { return nil }
        self.kind = kind
        self.placement = placement
        offerID = offer.id
        pixelURL = kind == .didAppear ? offer.pixelURL : nil
        advertiserPixelURL = kind == .didAppear ? offer.advertiserPixelURL : nil
    }

    /// `view_all` takes a group; nil for any other kind.
    public init?(group: OfferGroup, kind: Kind) {
        guard kind == .viewAll else { return nil }
        self.kind = kind
        placement = group.placement
        offerID = nil
        pixelURL = nil
        advertiserPixelURL = nil
    }
}

/// UTC timestamps as the Engage backend takes them: "2026-12-02T16:00:00.123Z".
enum Timestamp {
    static func iso8601(milliseconds: Int64) -> String {
        let days = milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds - 86_399_999) / 86_400_000
        let inDay = milliseconds - days * 86_400_000
        let (year, month, day) = civil(fromDays: days)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = inDay % 1000
        let millisText = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(year)-\(two(month))-\(two(day))T\(two(inDay / 3_600_000)):\(two(inDay / 60_000 % 60)):\(two(inDay / 1000 % 60)).\(millisText)Z"
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
