// A journal file as another instance left it (or as damage made it), read from any offset the database may
// record: records come out whole, in order, each ending inside the bytes, or reading stops; never a trap. What
// comes out is written again and must read back the same.
@testable import BlinkEngageCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 2, count: size - 2))
    let offset = Int(data[0]) | Int(data[1]) << 8  // a stored progress offset, perhaps past the end
    let (records, _) = JournalRecord.decode(bytes, from: offset)
    var previous = offset
    for record in records {
        precondition(record.end > previous && record.end <= bytes.count, "a record ends outside the journal")
        previous = record.end
        let again = JournalRecord.encode(record.payload, createdMilliseconds: record.createdMilliseconds)!
        precondition(JournalRecord.decode(again).records.map(\.payload) == [record.payload], "a record does not read back")
    }
    return 0
}
