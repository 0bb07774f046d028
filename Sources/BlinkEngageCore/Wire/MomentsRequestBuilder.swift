/// Builds the Moments API request (docs/PROTOCOL.md section 1): `POST {base}/offers.json?api_key=...`.
public struct MomentsRequestBuilder: Sendable {
    public let baseURL: String
    public let apiKey: String
    public let userAgent: String
    public let development: Bool
    public let timeoutMilliseconds: UInt32

    public init(baseURL: String, apiKey: String, userAgent: String, development: Bool, timeoutMilliseconds: UInt32) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.userAgent = userAgent
        self.development = development
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// The HTTP request for `request`, or the error the host gets instead (no I/O happens on failure).
    public func build(_ request: MomentsRequest, privacy: PrivacySignals = PrivacySignals()) throws(ServiceError) -> HTTPRequest {
        guard !apiKey.isEmpty else { throw .moments(.invalidParameter, "no API key is configured") }
        try request.validate()
        let base: String
        do { base = try ServiceURL.validatedBase(baseURL) } catch {
            throw .moments(.invalidURL, "the Moments URL cannot be built: \(error.message)")
        }
        let url = PercentEncoding.url(base + "/offers.json", query: [
            ("api_key", apiKey), ("loyaltyboost", request.loyaltyboost), ("creative", request.creative),
            ("campaignId", request.campaignID),
        ])
        return HTTPRequest(
            method: .post, url: url,
            headers: [
                ("Content-Type", "application/json"), ("Accept", "application/json"),
                ("User-Agent", request.payloadValue("ua") ?? userAgent),
            ],
            body: Array(body(request, privacy: privacy).utf8), timeoutMilliseconds: timeoutMilliseconds,
            keepsResponseHeaders: false)  // an answer is read from its status and body alone
    }

    /// One JSON object of string values, in the order the host set them; development mode adds "dev": "1".
    func body(_ request: MomentsRequest, privacy: PrivacySignals = PrivacySignals()) -> String {
        var members = privacy.applied(to: request.payload).map { (key: $0.key, value: JSONValue.string($0.value)) }
        if development || request.development {
            members.removeAll { $0.key == "dev" }
            members.append((key: "dev", value: .string("1")))
        }
        return JSONValue.object(JSONObject(members)).jsonText
    }
}
