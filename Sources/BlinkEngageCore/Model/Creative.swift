/// One creative (image) of an offer, as the Moments API describes it.
public struct Creative: Sendable, Equatable {
    public let id: String?
    public let url: String?
    public let width: String?
    public let height: String?
    public let type: String?
    public let creativeType: String?
    public let isPrimary: Bool
    public let aspectRatio: String?
}
