// The offer feed answer: decodes or fails with a reason, never traps.
@testable import BlinkEngageCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if case .feed(let feed)? = try? OfferFeedDecoder.decode(bytes) {
        for group in feed.groups { for offer in group.offers { precondition(feed.contains(offer)) } }
    }
    return 0
}
