// One stored image cache file: any bytes read as an intact entry or as damage, never a trap; and what reads as
// an entry survives writing it out and reading it back.
@testable import BlinkEngageCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let entry = ImageDiskCache.decode(bytes) else { return 0 }
    let again = ImageDiskCache.decode(ImageDiskCache.encode(entry))
    precondition(again?.url == entry.url && again?.etag == entry.etag && again?.freshUntil == entry.freshUntil
                 && again?.bytes.array == entry.bytes.array, "an entry must survive a round trip")
    _ = entry.isFresh(now: entry.storedAt)
    _ = entry.refreshed(headers: ["cache-control": "max-age=60"], now: entry.freshUntil)
    return 0
}
