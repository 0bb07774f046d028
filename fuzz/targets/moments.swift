// The Moments answer: any body, any status, decodes to a response or an error of the table, never a trap;
// every host-facing URL it hands out is http(s), and every other documented field reads as a walk over the offer's
// own members finds it (the decode finds each field's text once, in C: CJSONScan/offer.h).
@testable import BlinkEngageCore

/// A field that is not a URL, found the slow way: its last occurrence, when that is a scalar with text, up to its
/// first NUL (an escaped "\u0000" ends the C string the host gets).
func walked(_ offer: Offer, _ key: StaticString) -> String? {
    guard let value = OfferDecoder.nonEmpty(offer.tape, offer.tape.lastMember(of: offer.position, named: key)),
          let text = offer.tape.text(value) else { return nil }
    return String(decoding: text.utf8.prefix { $0 != 0 }, as: UTF8.self)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let status = size > 0 && data[0] == 0xFF ? 503 : 200
    switch MomentsResponseDecoder.decode(.success(HTTPResponse(status: status, body: bytes))) {
    case .success(let response):
        for offer in response.offers {
            offer.tape.forEachMember(of: offer.position) { key, _ in
                guard offer.tape.withText(key, { OfferKey($0)?.isURL == true }), let name = offer.tape.text(key) else { return }
                if let url = offer.field(name) { precondition(ServiceURL.isAbsoluteHTTP(url)) }
            }
            for key in OfferKey.allCases where !key.isURL {
                let expected = walked(offer, key.wireName) ?? (key == .title ? walked(offer, "name") : nil)
                precondition(offer.field(key.wireName.description) == expected, "\(key)")
            }
            if let url = offer.mainImageURL { precondition(ServiceURL.isAbsoluteHTTP(url)) }
            for creative in offer.creatives { if let url = creative.url { precondition(ServiceURL.isAbsoluteHTTP(url)) } }
            _ = String(cString: offer.jsonText)
            _ = response.styles.string(atPath: "offerText.buttonYes.background")
        }
    case .failure(let error):
        precondition((1...6).contains(error.code) && error.message.utf8.count <= SafeText.maximumBytes + 3)
    }
    return 0
}
