/// The user's privacy choices as the host's consent platform sets them (docs/PROTOCOL.md section 6), kept in memory
/// only: the platform is the source of truth and sets them at each start. Names follow OpenRTB 2.6.
public struct PrivacySignals: Sendable, Equatable, Hashable {
    /// -1 unknown, 0, 1.
    public private(set) var gdprApplies: Int = -1
    public private(set) var tcfConsent: String?
    public private(set) var usPrivacy: String?
    public private(set) var gpp: String?
    public private(set) var gppSections: String?
    /// -1 unknown, 0, 1.
    public private(set) var childDirected: Int = -1
    public private(set) var limitTracking = false

    public init() {}

    /// Payload keys a host may send that identify the user; withheld under COPPA or limited tracking.
    public static let identifierKeys: Set<String> = ["adpx_fp", "ip", "pub_user_id"]

    /// COPPA or limit tracking: identifiers stay home and third-party pixels are not fired.
    public var restrictsIdentifiers: Bool { childDirected == 1 || limitTracking }

    public mutating func setGDPR(applies: Int, consent: String?) throws(EngineFailure) {
        guard (-1...1).contains(applies) else { throw .invalidArgument("gdpr applies must be -1, 0 or 1") }
        if let consent {
            guard Self.isTCFString(consent) else { throw .invalidArgument("the TCF consent string is not base64url") }
        }
        gdprApplies = applies
        tcfConsent = consent
    }

    public mutating func setUSPrivacy(_ value: String?) throws(EngineFailure) {
        if let value {
            guard Self.isUSPrivacyString(value) else {
                throw .invalidArgument("a US privacy string is 4 characters: 1, then Y, N or - three times")
            }
        }
        usPrivacy = value
    }

    public mutating func setGPP(_ value: String?, sections: String?) throws(EngineFailure) {
        if let value {
            guard Self.isGPPString(value) else { throw .invalidArgument("the GPP string holds characters GPP does not use") }
            guard let sections, Self.isSectionList(sections) else {
                throw .invalidArgument("GPP section ids must be a comma list of integers, like \"7,8\"")
            }
        } else if sections != nil {
            throw .invalidArgument("GPP section ids without a GPP string")
        }
        gpp = value
        gppSections = value == nil ? nil : sections
    }

    public mutating func setChildDirected(_ value: Int) throws(EngineFailure) {
        guard (-1...1).contains(value) else { throw .invalidArgument("child directed must be -1, 0 or 1") }
        childDirected = value
    }

    public mutating func setLimitTracking(_ value: Int) throws(EngineFailure) {
        guard value == 0 || value == 1 else { throw .invalidArgument("limit tracking must be 0 or 1") }
        limitTracking = value == 1
    }

    /// The signals that are set, by their wire names, in a fixed order (payload keys and query parameters alike).
    public var wireItems: [(name: String, value: String)] {
        var items: [(String, String)] = []
        if gdprApplies >= 0 { items.append(("gdpr", String(gdprApplies))) }
        if let tcfConsent { items.append(("gdpr_consent", tcfConsent)) }
        if let usPrivacy { items.append(("us_privacy", usPrivacy)) }
        if let gpp, let gppSections { items += [("gpp", gpp), ("gpp_sid", gppSections)] }
        if childDirected >= 0 { items.append(("coppa", String(childDirected))) }
        if limitTracking { items.append(("lmt", "1")) }
        return items
    }

    /// The query parameters of an Engage call, encoded (`gdpr=1&us_privacy=1YNN`), "" when none is set.
    public var encodedQuery: String {
        wireItems.map { "\($0.name)=\(PercentEncoding.encode($0.value))" }.joined(separator: "&")
    }

    /// A Moments payload with the signals applied: each overrides a host key of the same name, and under
    /// COPPA or limited tracking the identifier keys are removed.
    public func applied(to payload: [(key: String, value: String)]) -> [(key: String, value: String)] {
        let items = wireItems
        let overridden = Set(items.map(\.name))
        var result = payload.filter { !overridden.contains($0.key) && !(restrictsIdentifiers && Self.identifierKeys.contains($0.key)) }
        result += items.map { (key: $0.name, value: $0.value) }
        return result
    }

    // MARK: - Formats

    static func isTCFString(_ text: String) -> Bool {
        // base64url segments, separated by "." as TCF v2 joins its core string and segments
        !text.isEmpty && text.utf8.count <= 8192 && text.utf8.allSatisfy { isBase64URL($0) || $0 == UInt8(ascii: ".") }
            && !text.hasPrefix(".") && !text.hasSuffix(".")
    }

    static func isUSPrivacyString(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count == 4 && bytes[0] == UInt8(ascii: "1")
            && bytes[1...].allSatisfy { $0 == UInt8(ascii: "Y") || $0 == UInt8(ascii: "N") || $0 == UInt8(ascii: "-") }
    }

    static func isGPPString(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 8192
            && text.utf8.allSatisfy { isBase64URL($0) || $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: ".") }
    }

    static func isSectionList(_ text: String) -> Bool {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        return !parts.isEmpty && parts.count <= 64
            && parts.allSatisfy { $0.utf8.count <= 5 && ASCII.isDigits($0) }
    }

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        ASCII.isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    public static func == (lhs: PrivacySignals, rhs: PrivacySignals) -> Bool { lhs.encodedQuery == rhs.encodedQuery }
    public func hash(into hasher: inout Hasher) { hasher.combine(encodedQuery) }
}
