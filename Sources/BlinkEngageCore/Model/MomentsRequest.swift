/// The parameters of one Moments API fetch. Setters validate, so an invalid value never reaches the wire.
public struct MomentsRequest: Sendable, Equatable {
    public private(set) var loyaltyboost: String?
    public private(set) var creative: String?
    public private(set) var campaignID: String?
    public var development = false
    /// Payload attributes in the order the host set them.
    public private(set) var payload: [(key: String, value: String)] = []

    /// Keys with a documented meaning; any other key is a custom attribute.
    public static let wellKnownKeys: Set<String> = ["placement", "ua", "ip", "adpx_fp", "pub_user_id", "country", "theme_id", "dev"]
    public static let documentedCustomAttributeLimit = 10
    public static let documentedValueLengthLimit = 128

    public init() {}

    public mutating func setLoyaltyboost(_ value: String?) throws(EngineFailure) {
        guard value == nil || ["0", "1", "2"].contains(value!) else {
            throw .invalidArgument("loyaltyboost must be \"0\", \"1\" or \"2\"")
        }
        loyaltyboost = value
    }

    public mutating func setCreative(_ value: String?) throws(EngineFailure) {
        guard value == nil || ["0", "1"].contains(value!) else { throw .invalidArgument("creative must be \"0\" or \"1\"") }
        creative = value
    }

    public mutating func setCampaignID(_ value: String?) throws(EngineFailure) {
        guard value != "" else { throw .invalidArgument("campaignId must not be empty") }
        campaignID = value
    }

    /// Sets (or with nil removes) one payload attribute, keeping the order of first setting.
    public mutating func setPayload(_ key: String, _ value: String?) throws(EngineFailure) {
        guard !key.isEmpty else { throw .invalidArgument("a payload key must not be empty") }
        if let position = payload.firstIndex(where: { $0.key == key }) {
            if let value { payload[position].value = value } else { payload.remove(at: position) }
        } else if let value {
            payload.append((key, value))
        }
    }

    public func payloadValue(_ key: String) -> String? { payload.first(where: { $0.key == key })?.value }

    /// Re-checks every rule before any I/O (the setters already enforce them; this guards the wire).
    public func validate() throws(ServiceError) {
        if let loyaltyboost, !["0", "1", "2"].contains(loyaltyboost) {
            throw .moments(.invalidParameter, "loyaltyboost must be \"0\", \"1\" or \"2\"")
        }
        if let creative, !["0", "1"].contains(creative) { throw .moments(.invalidParameter, "creative must be \"0\" or \"1\"") }
        if campaignID == "" { throw .moments(.invalidParameter, "campaignId must not be empty") }
    }

    /// What exceeds the documented limits, for a warning (the request is still sent).
    public var limitWarnings: [String] {
        // Every fetch asks, so the usual request costs no copy and no count of characters: custom attributes are
        // counted only when there are more members than their limit, and a value's characters only when its UTF-8
        // reaches the limit (a character takes at least one byte).
        var warnings: [String] = []
        if payload.count > Self.documentedCustomAttributeLimit {
            let custom = payload.filter { !Self.wellKnownKeys.contains($0.key) }
            if custom.count > Self.documentedCustomAttributeLimit {
                warnings.append("\(custom.count) custom attributes, more than the documented \(Self.documentedCustomAttributeLimit)")
            }
        }
        let limit = Self.documentedValueLengthLimit
        for attribute in payload where attribute.value.utf8.count >= limit && attribute.value.count >= limit {
            warnings.append("payload value of \"\(attribute.key)\" has \(attribute.value.count) characters, the documented limit is under \(Self.documentedValueLengthLimit)")
        }
        return warnings
    }

    /// Whether `other` has the same parameters byte for byte, which is what may stand for it on the wire: `==`
    /// compares text as Unicode does ("é" and "e" with U+0301 are equal there, not here).
    public func isByteIdentical(to other: MomentsRequest) -> Bool {
        func same(_ lhs: String?, _ rhs: String?) -> Bool {
            guard let lhs, let rhs else { return lhs == nil && rhs == nil }
            return lhs.hasSameUTF8(as: rhs)
        }
        return same(loyaltyboost, other.loyaltyboost) && same(creative, other.creative) && same(campaignID, other.campaignID)
            && development == other.development
            && payload.elementsEqual(other.payload) { same($0.key, $1.key) && same($0.value, $1.value) }
    }

    public static func == (lhs: MomentsRequest, rhs: MomentsRequest) -> Bool {
        lhs.loyaltyboost == rhs.loyaltyboost && lhs.creative == rhs.creative && lhs.campaignID == rhs.campaignID
            && lhs.development == rhs.development && lhs.payload.elementsEqual(rhs.payload, by: { $0 == $1 })
    }
}
