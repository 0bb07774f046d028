/// A group of offers in the feed, as the host lays it out. Owned by its feed.
public final class OfferGroup: Sendable {
    public let id: String
    public let title: String?
    public let offers: [Offer]
    public let placement: FeedPlacement
    public let idText: StableCString
    public let titleText: StableCString?

    init(id: String, title: String?, offers: [Offer], placement: FeedPlacement) {
        self.id = id
        self.title = title
        self.offers = offers
        self.placement = placement
        idText = StableCString(id)
        titleText = StableCString.nonEmpty(title)
    }
}

/// One successful feed load: groups of offers, immutable. Screens resolve offers and groups against the newest
/// feed by identity, so an offer from an older load (even with the same id) resolves to nothing.
public final class OfferFeed: Sendable {
    public let id: String
    public let groups: [OfferGroup]
    public let idText: StableCString
    /// This feed's groups and offers by identity: an equal offer from another load is not a member.
    private let members: Set<ObjectIdentifier>
    /// Set when the feed came from the feed cache instead of the network: its age in seconds then.
    public let cacheAgeSeconds: UInt32?

    init(id: String, groups: [OfferGroup], cacheAgeSeconds: UInt32? = nil) {
        self.id = id
        self.cacheAgeSeconds = cacheAgeSeconds
        self.groups = groups
        idText = StableCString(id)
        var members = Set<ObjectIdentifier>()
        for group in groups {
            members.insert(ObjectIdentifier(group))
            for offer in group.offers { members.insert(ObjectIdentifier(offer)) }
        }
        self.members = members
    }

    public func contains(_ offer: Offer) -> Bool { members.contains(ObjectIdentifier(offer)) }
    public func contains(_ group: OfferGroup) -> Bool { members.contains(ObjectIdentifier(group)) }
}
