// One stored queue row, field by field: any id, kind, text and time reads as an item or as damaged, never a
// trap, and a queue that adopts it keeps its limits.
@testable import BlinkEngageCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 32 else { return 0 }
    let raw = UnsafeRawPointer(data)
    let numbers = (0..<4).map { Int64(bitPattern: raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self)) }
    let text = String(decoding: UnsafeBufferPointer(start: data + 32, count: size - 32), as: UTF8.self)
    let kind = numbers[1] & 3
    guard let item = SQLiteOutboxStorage.item(id: numbers[0], kind: kind, body: text, identity: kind == 1 ? "u" : nil,
                                            identityIsNull: kind != 1, created: numbers[2]) else { return 0 }
    var queue = OutboxQueue(maximumItems: 1, eventsEnabled: true)
    queue.adopt([StoredOutboxRow(item: item, attempts: Int(truncatingIfNeeded: numbers[3]), nextAttemptMilliseconds: numbers[3])],
                nowMonotonic: UInt64(truncatingIfNeeded: numbers[2]), nowWallMilliseconds: numbers[1])
    _ = queue.selectWork(now: UInt64(truncatingIfNeeded: numbers[3]))
    _ = queue.dropExpired(oldestAllowedMilliseconds: numbers[2])
    return 0
}
