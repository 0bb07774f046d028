// Stored queue records: whatever is on disk reads as an item or as corrupt, never a trap; an item written
// reads back the same.
@testable import BlinkEngageCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let item = try? OutboxRecordCodec.decode(bytes, name: "n") {
        let again = try? OutboxRecordCodec.decode(OutboxRecordCodec.encode(item), name: "n")
        precondition(again == item, "a record does not survive a round trip")
    }
    return 0
}
