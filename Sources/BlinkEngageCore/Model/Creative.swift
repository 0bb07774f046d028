/// One creative (image) of an offer, as the Moments API describes it. A final class because the C API lends
/// creatives by address (`be_offer_creative_at`); its C strings live as long as the answer that holds it.
///
/// Like its offer, a position in the answer's tape: what every creative needs (the URL check, primary, the
/// pixel sizes) is read when it is decoded, its texts when asked for.
public final class Creative: Sendable, Equatable {
    private let tape: JSONTape
    private let texts: AnswerTexts
    /// The members behind the texts handed out: `url` only when it is an absolute http(s) URL.
    let urlPosition: Int?
    private let typePosition: Int?
    private let position: Int
    public let isPrimary: Bool
    /// Width and height in pixels as whole numbers; 0 when absent, not a whole number, or beyond 32 bits.
    public let pixelWidth: UInt32
    public let pixelHeight: UInt32

    init(tape: JSONTape, at position: Int, texts: AnswerTexts) {
        self.tape = tape
        self.texts = texts
        self.position = position
        let url = OfferDecoder.nonEmpty(tape, tape.present(position, "url"))
        urlPosition = url.flatMap { url in tape.withText(url) { ServiceURL.isAbsoluteHTTP($0) } ? url : nil }
        typePosition = OfferDecoder.nonEmpty(tape, tape.present(position, "type"))
        isPrimary = tape.present(position, "is_primary").map(tape.isTrue) == true
        pixelWidth = Self.pixels(OfferDecoder.nonEmpty(tape, tape.present(position, "width")).flatMap(tape.text))
        pixelHeight = Self.pixels(OfferDecoder.nonEmpty(tape, tape.present(position, "height")).flatMap(tape.text))
    }

    private func text(_ key: StaticString) -> String? { OfferDecoder.nonEmpty(tape, tape.present(position, key)).flatMap(tape.text) }

    public var id: String? { text("id") }
    /// Only an absolute http(s) URL; anything else reads as absent.
    public var url: String? { urlPosition.flatMap(tape.text) }
    public var width: String? { text("width") }
    public var height: String? { text("height") }
    public var type: String? { text("type") }
    public var creativeType: String? { text("creative_type") }
    public var aspectRatio: String? { text("aspect_ratio") }

    public var urlText: UnsafePointer<CChar>? { cText(urlPosition) }
    public var typeText: UnsafePointer<CChar>? { cText(typePosition) }

    private func cText(_ position: Int?) -> UnsafePointer<CChar>? {
        guard let position else { return nil }
        return texts.text(at: position)
    }

    static func pixels(_ text: String?) -> UInt32 {
        guard let text, ASCII.isDigits(text), text.utf8.count <= 10 else { return 0 }
        return UInt32(text) ?? 0
    }

    public static func == (lhs: Creative, rhs: Creative) -> Bool {
        lhs.id == rhs.id && lhs.url == rhs.url && lhs.width == rhs.width && lhs.height == rhs.height
            && lhs.type == rhs.type && lhs.creativeType == rhs.creativeType && lhs.isPrimary == rhs.isPrimary
            && lhs.aspectRatio == rhs.aspectRatio
    }
}
