// Zone ads: the one-line answer parses strictly; an ad it accepts carries only http(s) URLs.
@testable import BlinkEngageCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let ad = try? ZoneAdParser.parse(bytes, zoneID: "z") {
        for url in [ad.imageURL, ad.linkURL].compactMap({ $0?.string }) { precondition(ServiceURL.isAbsoluteHTTP(url)) }
    }
    return 0
}
