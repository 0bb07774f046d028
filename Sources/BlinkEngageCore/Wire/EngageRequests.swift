/// Requests to the Engage backend and the answers the feed needs (docs/PROTOCOL.md section 2).
public struct EngageRequests: Sendable {
    public let baseURL: String
    public let apiKey: String
    public let userAgent: String
    public let timeoutMilliseconds: UInt32

    public init(baseURL: String, apiKey: String, userAgent: String, timeoutMilliseconds: UInt32) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.userAgent = userAgent
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// `base + path?api_key=KEY`, then the privacy signals that are set (docs/PROTOCOL.md section 6).
    private func url(_ path: String, _ privacy: PrivacySignals) -> String {
        let url = PercentEncoding.url(baseURL + path, query: [("api_key", apiKey)])
        let signals = privacy.encodedQuery
        return signals.isEmpty ? url : url + "&" + signals
    }

    private var jsonHeaders: [(name: String, value: String)] {
        [("Accept", "application/json"), ("User-Agent", userAgent)]
    }

    /// `POST /v1/users` with the user's publisher id and this storage directory's device id (not under COPPA or
    /// limited tracking).
    public func registration(publisherUserID: String, deviceID: String, privacy: PrivacySignals = PrivacySignals()) -> HTTPRequest {
        var members: [(key: String, value: JSONValue)] = [("pub_user_id", .string(publisherUserID))]
        if !privacy.restrictsIdentifiers { members.append(("device_id", .string(deviceID))) }
        let body = JSONValue.object(JSONObject(members))
        return HTTPRequest(method: .post, url: url("/v1/users", privacy), headers: [("Content-Type", "application/json")] + jsonHeaders,
                           body: Array(body.jsonText.utf8), timeoutMilliseconds: timeoutMilliseconds)
    }

    /// `POST /v1/events` with `{"events": [...]}`: the queued event objects as they were made (`EventJSON`), under
    /// the token of the identity they were reported under, with the privacy signals in force then.
    public func events(_ objects: [String], privacyQuery: String, token: String?) -> HTTPRequest {
        var body = #"{"events":["#
        body += objects.joined(separator: ",")
        body += "]}"
        var headers = [("Content-Type", "application/json")] + jsonHeaders
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        var url = PercentEncoding.url(baseURL + "/v1/events", query: [("api_key", apiKey)])
        if !privacyQuery.isEmpty { url += "&" + privacyQuery }
        return HTTPRequest(method: .post, url: url, headers: headers, body: Array(body.utf8), timeoutMilliseconds: timeoutMilliseconds)
    }

    /// `GET /v1/offer-feed` under the user's token.
    public func offerFeed(token: String, privacy: PrivacySignals = PrivacySignals()) -> HTTPRequest {
        HTTPRequest(method: .get, url: url("/v1/offer-feed", privacy), headers: jsonHeaders + [("Authorization", "Bearer \(token)")],
                    timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Whether an Engage answer refuses the token it was sent with (docs/PROTOCOL.md section 2): the identity then
    /// registers again, once, and the call is sent again, once. The one place that rule is read, for the feed and
    /// for events.
    static func refusesToken(_ outcome: Result<HTTPResponse, TransportError>) -> Bool {
        if case .success(let response) = outcome { return response.status == 401 }
        return false
    }

    /// RFC 6750 `b64token` characters, at most 4 KiB: a token goes into an `Authorization` header, so one with
    /// CR/LF, spaces or control characters is refused as the registration answer it came in.
    static func isBearerToken(_ token: String) -> Bool {
        !token.isEmpty && token.utf8.count <= 4096
            && token.utf8.allSatisfy { ASCII.isAlphanumeric($0) || "-._~+/=".utf8.contains($0) }
    }

    /// `user_id` and `token` from a 2xx registration answer.
    public static func decodeRegistration(_ body: [UInt8]) -> (userID: String, token: String)? {
        guard let object = (try? JSONParser.parse(body))?.objectValue,
              let userID = object.present("user_id")?.scalarText, !userID.isEmpty,
              let token = object.present("token")?.stringValue, isBearerToken(token) else { return nil }
        return (userID, token)
    }
}
