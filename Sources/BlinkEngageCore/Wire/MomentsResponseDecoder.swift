/// Turns a Moments API answer into a `MomentsResponse` or the error of PROTOCOL.md section 1's table.
public enum MomentsResponseDecoder {
    /// - Parameter log: receives a message for each offer skipped for lack of an id.
    public static func decode(
        _ outcome: Result<HTTPResponse, TransportError>, log: (String) -> Void = { _ in }
    ) -> Result<MomentsResponse, ServiceError> {
        switch outcome {
        case .failure(.cancelled):
            return .failure(.cancelled)
        case .failure(.tooLarge(let limit)):
            return .failure(.moments(.decoding, "the answer is larger than \(limit) bytes"))
        case .failure(.refused(let reason)):
            return .failure(.moments(.invalidParameter, "the request was not sent: \(reason)"))
        case .failure(let error):
            return .failure(.moments(.network, error.message))
        case .success(let response) where !(200..<300).contains(response.status):
            return .failure(httpStatusError(response))
        case .success(let response):
            return Result { () throws(ServiceError) in try decodeBody(response.body, log: log) }
        }
    }

    /// Decodes a 2xx body.
    public static func decodeBody(_ body: [UInt8], log: (String) -> Void = { _ in }) throws(ServiceError) -> MomentsResponse {
        let root: JSONValue
        do { root = try JSONParser.parse(body) } catch { throw .moments(.decoding, "the answer is not JSON: \(error)") }
        guard let data = root.objectValue?.present("data")?.objectValue else {
            throw .moments(.decoding, "the answer has no \"data\" object")
        }
        var styles = JSONObject()
        if let value = data.present("styles") {
            guard let object = value.objectValue else { throw .moments(.decoding, "\"styles\" is not an object") }
            styles = object
        }
        var legacySettings: JSONObject?
        if let value = data.present("settings") {
            guard let object = value.objectValue else { throw .moments(.decoding, "\"settings\" is not an object") }
            legacySettings = object
        }
        var offers: [Offer] = []
        let source = JSONSource(body)
        switch data.present("offers") {
        case nil:
            break
        case .array(let elements)?:
            for element in elements {
                guard let object = element.objectValue else { throw .moments(.decoding, "an offer is not an object") }
                do {
                    if let offer = try OfferDecoder.decode(object, source: source, log: log) { offers.append(offer) } else { log("skipped an offer without an id") }
                } catch {
                    throw .moments(.decoding, error.reason)
                }
            }
        default:
            throw .moments(.decoding, "\"offers\" is not an array")
        }
        if let privacy = data.present("privacy_url"), privacy.stringValue == nil {
            throw .moments(.decoding, "\"privacy_url\" is not a string")
        }
        guard !offers.isEmpty else { throw .moments(.noOffers, "the answer holds no offers") }
        return MomentsResponse(
            offers: offers, styles: Styles(styles: styles, legacySettings: legacySettings),
            privacyURL: data.present("privacy_url")?.stringValue.flatMap { ServiceURL.isAbsoluteHTTP($0) ? $0 : nil })
    }

    /// Error 6, with the server's own explanation when its body carries one.
    static func httpStatusError(_ response: HTTPResponse) -> ServiceError {
        var message = "HTTP status \(response.status)"
        if let detail = serverMessage(response.body) { message += ": \(detail)" }
        return .moments(.httpStatus, message, httpStatus: response.status)
    }

    /// `error` (a string or `{ "message": ... }`) or `message` from a JSON error body.
    static func serverMessage(_ body: [UInt8]) -> String? {
        guard let object = (try? JSONParser.parse(body))?.objectValue else { return nil }
        if let error = object.present("error") {
            if let text = error.stringValue, !text.isEmpty { return text }
            if let text = error.objectValue?.present("message")?.stringValue, !text.isEmpty { return text }
        }
        if let text = object.present("message")?.stringValue, !text.isEmpty { return text }
        return nil
    }
}
