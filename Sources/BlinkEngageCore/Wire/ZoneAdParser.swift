/// Strict parsing of the one-line zone ad answer `FLAG|IMAGE_URL|LINK_URL` (docs/PROTOCOL.md section 5), where the
/// original read the flag with a lenient integer conversion and indexed past short answers.
public enum ZoneAdParser {
    public static let malformed = 1, network = 2, httpStatus = 3

    /// The zone ad, or the error of domain `BlinkEngageZoneAd` the host gets instead.
    public static func decode(_ outcome: Result<HTTPResponse, TransportError>, zoneID: String) -> Result<ZoneAd, ServiceError> {
        switch outcome {
        case .failure(.cancelled):
            return .failure(.cancelled)
        case .failure(.tooLarge(let limit)):
            return .failure(ServiceError(.zoneAd, code: malformed, message: "the answer is larger than \(limit) bytes"))
        case .failure(let error):
            return .failure(ServiceError(.zoneAd, code: network, message: error.message))
        case .success(let response) where !(200..<300).contains(response.status):
            return .failure(ServiceError(.zoneAd, code: httpStatus, message: "HTTP status \(response.status)", httpStatus: response.status))
        case .success(let response):
            return Result { () throws(ServiceError) in try parse(response.body, zoneID: zoneID) }
        }
    }

    public static func parse(_ body: [UInt8], zoneID: String) throws(ServiceError) -> ZoneAd {
        func refuse(_ reason: String) -> ServiceError { ServiceError(.zoneAd, code: malformed, message: "malformed zone ad answer: \(reason)") }
        guard let text = String(validating: body, as: UTF8.self) else { throw refuse("not UTF-8") }
        let line = text.trimmed
        guard !line.contains("\n"), !line.contains("\r") else { throw refuse("more than one line") }
        let fields = line.split(separator: "|", omittingEmptySubsequences: false).map { String($0).trimmed }
        guard fields.count == 3 else { throw refuse("\(fields.count) fields, expected FLAG|IMAGE_URL|LINK_URL") }
        switch fields[0] {
        case "1":
            guard let image = ServiceURL.href(fields[1]) else { throw refuse("the image URL is not an http(s) URL") }
            guard let link = ServiceURL.href(fields[2]) else { throw refuse("the link URL is not an http(s) URL") }
            return ZoneAd(zoneID: zoneID, isEnabled: true, imageURL: image, linkURL: link)
        case "0":
            // Hidden: the URLs may be empty, and are kept only when they are valid.
            return ZoneAd(zoneID: zoneID, isEnabled: false, imageURL: ServiceURL.href(fields[1]), linkURL: ServiceURL.href(fields[2]))
        default:
            throw refuse("the flag is \"\(fields[0])\", expected 0 or 1")
        }
    }
}
