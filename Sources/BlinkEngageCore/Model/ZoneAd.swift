/// One legacy zone ad: whether to show it, and its image and link (docs/PROTOCOL.md section 5). Immutable.
public final class ZoneAd: Sendable {
    public let zoneID: String
    public let isEnabled: Bool
    public let imageURL: StableCString?
    public let linkURL: StableCString?

    init(zoneID: String, isEnabled: Bool, imageURL: String?, linkURL: String?) {
        self.zoneID = zoneID
        self.isEnabled = isEnabled
        self.imageURL = StableCString.nonEmpty(imageURL)
        self.linkURL = StableCString.nonEmpty(linkURL)
    }
}
