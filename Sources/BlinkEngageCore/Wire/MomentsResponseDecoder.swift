/// Turns a Moments API answer into a `MomentsResponse` or the error of docs/PROTOCOL.md section 1's table.
public enum MomentsResponseDecoder {
    /// - Parameter warnings: gains a message for each offer skipped for lack of an id or with URL fields refused
    ///   (collected, not passed to a closure: with one, the optimiser copies the decoder once per caller).
    public static func decode(
        _ outcome: Result<HTTPResponse, TransportError>, warnings: inout [String]
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
            return Result { () throws(ServiceError) in try decodeBody(response.body, warnings: &warnings) }
        }
    }

    /// Decodes a 2xx body.
    public static func decodeBody(_ body: [UInt8], warnings: inout [String]) throws(ServiceError) -> MomentsResponse {
        let tape: JSONTape
        do { tape = try JSONTape(parsing: body) } catch { throw .moments(.decoding, "the answer is not JSON: \(error)") }
        guard tape.isObject(0), let data = tape.present(0, "data"), tape.isObject(data) else {
            throw .moments(.decoding, "the answer has no \"data\" object")
        }
        let styles = tape.present(data, "styles"), legacySettings = tape.present(data, "settings")
        if let styles, !tape.isObject(styles) { throw .moments(.decoding, "\"styles\" is not an object") }
        if let legacySettings, !tape.isObject(legacySettings) { throw .moments(.decoding, "\"settings\" is not an object") }
        let texts = AnswerTexts(tape: tape)
        var offers: [Offer] = []
        if let list = tape.present(data, "offers") {
            guard tape.isArray(list) else { throw .moments(.decoding, "\"offers\" is not an array") }
            let elements = tape.elements(of: list)
            offers.reserveCapacity(elements.count)
            for element in elements {
                guard tape.isObject(element) else { throw .moments(.decoding, "an offer is not an object") }
                do {
                    if let offer = try OfferDecoder.decode(tape, at: element, texts: texts) {
                        if let refusal = OfferDecoder.refusals(of: offer) { warnings.append(refusal) }
                        offers.append(offer)
                    } else {
                        warnings.append("skipped an offer without an id")
                    }
                } catch {
                    throw .moments(.decoding, error.reason)
                }
            }
        }
        let privacy = tape.present(data, "privacy_url")
        if let privacy, !tape.isString(privacy) { throw .moments(.decoding, "\"privacy_url\" is not a string") }
        guard !offers.isEmpty else { throw .moments(.noOffers, "the answer holds no offers") }
        // The privacy URL is checked now and made a C string when asked for, as offers' URL fields are.
        let privacyURL = AnswerURL.read(tape, privacy, texts: texts)
        return MomentsResponse(
            offers: offers, styles: Styles(tape: tape, styles: styles, legacySettings: legacySettings, texts: texts),
            privacy: privacyURL, texts: texts)
    }

    /// `decode(_:warnings:)` for callers that log nothing.
    public static func decode(_ outcome: Result<HTTPResponse, TransportError>) -> Result<MomentsResponse, ServiceError> {
        var warnings: [String] = []
        return decode(outcome, warnings: &warnings)
    }

    /// `decodeBody(_:warnings:)` for callers that log nothing.
    public static func decodeBody(_ body: [UInt8]) throws(ServiceError) -> MomentsResponse {
        var warnings: [String] = []
        return try decodeBody(body, warnings: &warnings)
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
