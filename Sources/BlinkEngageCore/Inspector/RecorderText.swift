/// The flight recorder's wire formats, in one place: its JSON lines, and HAR 1.2 made from them (browser tools
/// open it). Both are made from the same entries, so what one says the other says.
public enum RecorderText {
    static let fileName = "recorder.jsonl"
    /// Query parameters whose values are secrets or identifiers: replaced by "REDACTED" in every recorded URL.
    static let secretParameters: Set<String> = ["api_key", "apikey", "key", "token", "access_token", "auth", "user_id",
                                                "pub_user_id", "device_id", "uid", "fp", "email", "password"]

    /// `url` with the values of secret query parameters replaced, and any user:password@ removed.
    static func redacted(_ url: String) -> String {
        var text = url
        if let fragment = text.firstIndex(of: "#") { text = String(text[..<fragment]) }
        if let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") {
            let authority = text.index(colon, offsetBy: 3)
            if let at = text[authority...].prefix(while: { $0 != "/" && $0 != "?" }).lastIndex(of: "@") {
                text.removeSubrange(authority...at)
            }
        }
        guard let question = text.firstIndex(of: "?") else { return text }
        let pairs = text[text.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let name = pair.prefix { $0 != "=" }
            let decoded = name.removingPercentEncodingLossy.lowercased()
            return secretParameters.contains(decoded) && name.count < pair.count ? name + "=REDACTED" : String(pair)
        }
        return String(text[...question]) + pairs.joined(separator: "&")
    }

    static func request(_ request: HTTPRequest, outcome: Result<HTTPResponse, TransportError>, elapsedNanoseconds: UInt64,
                        atMilliseconds: Int64) -> String {
        let totalMilliseconds = Double(elapsedNanoseconds) / 1_000_000
        var members: [(key: String, value: JSONValue)] = [
            ("t", .string(Timestamp.iso8601(milliseconds: atMilliseconds - Int64(totalMilliseconds)))), ("type", .string("request")),
            ("method", .string(request.method.rawValue)), ("url", .string(redacted(request.url))),
        ]
        switch outcome {
        case .success(let response):
            members.append(("status", .number(String(response.status))))
            members.append(("bytes", .number(String(response.stableBody?.count ?? response.body.count))))
            if let timings = response.timings {
                // HAR's phases: each from the one before; what libcurl does not know (a reused connection's
                // DNS) is 0. The queue is the wait before libcurl started the transfer.
                let total = timings.totalMicroseconds
                let queue = max(0, totalMilliseconds - Double(total) / 1000)
                members.append(("timings", .object(JSONObject([
                    ("queue", number(queue)), ("dns", micros(timings.dnsMicroseconds)),
                    ("connect", micros(max(0, timings.connectMicroseconds - timings.dnsMicroseconds))),
                    ("tls", micros(timings.tlsMicroseconds > 0 ? max(0, timings.tlsMicroseconds - timings.connectMicroseconds) : 0)),
                    ("wait", micros(max(0, timings.firstByteMicroseconds - max(timings.tlsMicroseconds, timings.connectMicroseconds)))),
                    ("receive", micros(max(0, total - timings.firstByteMicroseconds))), ("total", number(totalMilliseconds)),
                ]))))
            } else {
                members.append(("timings", .object(JSONObject([("total", number(totalMilliseconds))]))))
            }
        case .failure(let error):
            members.append(("error", .string(SafeText.clean(error.message))))
            members.append(("timings", .object(JSONObject([("total", number(totalMilliseconds))]))))
        }
        return JSONValue.object(JSONObject(members)).jsonText
    }

    static func decision(_ what: String, _ detail: String, atMilliseconds: Int64) -> String {
        JSONValue.object(JSONObject([
            ("t", .string(Timestamp.iso8601(milliseconds: atMilliseconds))), ("type", .string("decision")),
            ("what", .string(what)), ("detail", .string(SafeText.clean(detail))),
        ])).jsonText
    }

    private static func number(_ milliseconds: Double) -> JSONValue {
        .number(String(Double(Int((milliseconds * 1000).rounded())) / 1000))
    }

    private static func micros(_ microseconds: Int64) -> JSONValue { number(Double(microseconds) / 1000) }

    /// HAR 1.2 of recorder JSON lines: one entry per request, decisions in the log's `_decisions` (HAR allows
    /// fields of one's own when they begin with an underscore). Lines that are not the recorder's are skipped.
    public static func har(fromJSONLines text: String, creatorVersion: String) -> String {
        var entries: [JSONValue] = [], decisions: [JSONValue] = []
        for line in text.split(separator: "\n") {
            guard case .object(let entry)? = try? JSONParser.parse(String(line)) else { continue }
            switch entry["type"]?.stringValue {
            case "request": if let har = harEntry(entry) { entries.append(har) }
            case "decision": decisions.append(.object(entry))
            default: continue
            }
        }
        let log = JSONObject([
            ("version", .string("1.2")),
            ("creator", .object(JSONObject([("name", .string("BlinkEngage")), ("version", .string(creatorVersion))]))),
            ("pages", .array([])), ("entries", .array(entries)), ("_decisions", .array(decisions)),
        ])
        return JSONValue.object(JSONObject([("log", .object(log))])).jsonText
    }

    private static func harEntry(_ entry: JSONObject) -> JSONValue? {
        guard let started = entry["t"]?.stringValue, let method = entry["method"]?.stringValue, let url = entry["url"]?.stringValue else { return nil }
        let timings = entry["timings"].flatMap { if case .object(let o) = $0 { o } else { nil } } ?? JSONObject([])
        func phase(_ name: String) -> JSONValue { timings[name].flatMap { if case .number = $0 { $0 } else { nil } } ?? .number("-1") }
        let total = timings["total"] ?? .number("0")
        let bytes = entry["bytes"] ?? .number("-1")
        let empty: JSONValue = .array([])
        var response: [(key: String, value: JSONValue)] = [
            ("status", entry["status"] ?? .number("0")), ("statusText", .string(entry["error"]?.stringValue ?? "")),
            ("httpVersion", .string("HTTP/1.1")), ("cookies", empty), ("headers", empty),
            ("content", .object(JSONObject([("size", bytes), ("mimeType", .string(""))]))),
            ("redirectURL", .string("")), ("headersSize", .number("-1")), ("bodySize", bytes),
        ]
        if let error = entry["error"] { response.append(("_error", error)) }
        return .object(JSONObject([
            ("startedDateTime", .string(started)), ("time", total),
            ("request", .object(JSONObject([
                ("method", .string(method)), ("url", .string(url)), ("httpVersion", .string("HTTP/1.1")), ("cookies", empty),
                ("headers", empty), ("queryString", empty), ("headersSize", .number("-1")), ("bodySize", .number("-1")),
            ]))),
            ("response", .object(JSONObject(response))), ("cache", .object(JSONObject([]))),
            ("timings", .object(JSONObject([
                ("blocked", phase("queue")), ("dns", phase("dns")), ("connect", phase("connect")), ("ssl", phase("tls")),
                ("send", .number("0")), ("wait", phase("wait")), ("receive", phase("receive")),
            ]))),
        ]))
    }
}

private extension Substring {
    /// Percent-decoding of a query name for comparison only (invalid escapes stay as they are).
    var removingPercentEncodingLossy: String {
        var bytes: [UInt8] = [], source = Array(utf8), index = 0
        while index < source.count {
            if source[index] == UInt8(ascii: "%"), index + 2 < source.count,
               let value = UInt8(String(decoding: source[(index + 1)...(index + 2)], as: UTF8.self), radix: 16) {
                bytes.append(value)
                index += 3
            } else {
                bytes.append(source[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
