/// One creative (image) of an offer, as the Moments API describes it. A final class because the C API lends
/// creatives by address (`be_offer_creative_at`); its C strings live as long as the offer that owns it.
public final class Creative: Sendable, Equatable {
    public let id: String?
    /// Only an absolute http(s) URL; anything else reads as absent.
    public let url: String?
    public let width: String?
    public let height: String?
    public let type: String?
    public let creativeType: String?
    public let isPrimary: Bool
    public let aspectRatio: String?

    public let urlText: StableCString?
    public let typeText: StableCString?

    public init(id: String?, url: String?, width: String?, height: String?, type: String?, creativeType: String?,
                isPrimary: Bool, aspectRatio: String?) {
        self.id = id
        self.url = url.flatMap { ServiceURL.isAbsoluteHTTP($0) ? $0 : nil }
        self.width = width
        self.height = height
        self.type = type
        self.creativeType = creativeType
        self.isPrimary = isPrimary
        self.aspectRatio = aspectRatio
        urlText = StableCString.nonEmpty(self.url)
        typeText = StableCString.nonEmpty(type)
    }

    /// Width and height in pixels as whole numbers; 0 when absent, not a whole number, or beyond 32 bits.
    public var pixelWidth: UInt32 { Self.pixels(width) }
    public var pixelHeight: UInt32 { Self.pixels(height) }

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
