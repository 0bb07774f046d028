internal import CJSONScan

/// One creative (image) of an offer, as the Moments API describes it. A final class because the C API lends
/// creatives by address (`be_offer_creative_at`); its C strings live as long as the answer that holds it.
///
/// Like its offer, a position in the answer's tape: what every creative needs (the URL check, primary, the
/// pixel sizes) is read when it is made, its texts when asked for. Made the first time its offer's creatives
/// are asked for (`Offer.creatives`): the decoder reads only what the offer needs of them.
public final class Creative: Sendable, Equatable {
    private let tape: JSONTape
    private let texts: AnswerTexts
    /// `url`, only when it reads as an absolute http(s) URL.
    let answerURL: AnswerURL?
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
        // One walk over the creative's members for the five read now (the last occurrence of each wins).
        let members = tape.creativeMembers(of: position)
        answerURL = Self.url(members, tape: tape, texts: texts)
        typePosition = OfferDecoder.nonEmpty(tape, Self.at(members.type))
        isPrimary = Self.isPrimary(members, tape: tape)
        pixelWidth = Self.pixels(members.width_pixels, at: Int(members.width), in: tape)
        pixelHeight = Self.pixels(members.height_pixels, at: Int(members.height), in: tape)
    }

    private static func at(_ slot: UInt32) -> Int? { slot == 0 ? nil : Int(slot) }

    /// `is_primary` as the member walk found it.
    static func isPrimary(_ members: be_creative_members, tape: JSONTape) -> Bool {
        members.primary != 0 && tape.isTrue(Int(members.primary))
    }

    /// `url` as the member walk found it: a URL that is its own href as given, else what the URL parser makes of
    /// any other non-empty one.
    static func url(_ members: be_creative_members, tape: JSONTape, texts: AnswerTexts) -> AnswerURL? {
        members.url_needs_reading != 0 ? AnswerURL.read(tape, at(members.url), texts: texts)
            : at(members.url).flatMap { OfferDecoder.nonEmpty(tape, $0) }.map { .answer($0) }
    }

    private func text(_ key: StaticString) -> String? { OfferDecoder.nonEmpty(tape, tape.present(position, key)).flatMap(tape.text) }

    public var id: String? { text("id") }
    /// Only an absolute http(s) URL; anything else reads as absent.
    public var url: String? { answerURL?.string(in: tape) }
    public var width: String? { text("width") }
    public var height: String? { text("height") }
    public var type: String? { text("type") }
    public var creativeType: String? { text("creative_type") }
    public var aspectRatio: String? { text("aspect_ratio") }

    public var urlText: UnsafePointer<CChar>? { answerURL?.text(in: texts) }
    public var typeText: UnsafePointer<CChar>? { cText(typePosition) }

    private func cText(_ position: Int?) -> UnsafePointer<CChar>? {
        guard let position else { return nil }
        return texts.text(at: position)
    }

    /// A size as `be_creative_read_members` read it: its value, or for a string with escapes (-1) the value its
    /// text spells once they are resolved.
    private static func pixels(_ read: Int64, at position: Int, in tape: JSONTape) -> UInt32 {
        read >= 0 ? UInt32(truncatingIfNeeded: read) : tape.withText(position) { pixels($0) }
    }

    static func pixels(_ text: String?) -> UInt32 {
        guard var text else { return 0 }
        return text.withUTF8 { pixels(UnsafeRawBufferPointer($0)) }
    }

    /// Digits only, at most ten, and within 32 bits; else 0.
    static func pixels(_ digits: UnsafeRawBufferPointer) -> UInt32 {
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy(ASCII.isDigit) else { return 0 }
        var value: UInt64 = 0
        for digit in digits { value = value * 10 + UInt64(digit - UInt8(ascii: "0")) }
        return value <= UInt64(UInt32.max) ? UInt32(value) : 0
    }

    public static func == (lhs: Creative, rhs: Creative) -> Bool {
        lhs.id == rhs.id && lhs.url == rhs.url && lhs.width == rhs.width && lhs.height == rhs.height
            && lhs.type == rhs.type && lhs.creativeType == rhs.creativeType && lhs.isPrimary == rhs.isPrimary
            && lhs.aspectRatio == rhs.aspectRatio
    }
}
