// A report file of storage format 1 (0.1.0's `outbox/<name>.item`): whatever its bytes, the reader takes a whole,
// checksummed record of a beacon or an event, or nothing, without trapping; what it takes is a valid outbox row.
@testable import BlinkEngageCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let row = LegacyFormat.decode(Array(UnsafeBufferPointer(start: data, count: size))) else { return 0 }
    precondition(row.count == 5)
    guard case .integer(let kind) = row[0], case .text(let body) = row[1], case .integer(let created) = row[4] else {
        preconditionFailure("a row of the wrong shape")
    }
    let identity: String? = if case .text(let text) = row[2] { text } else { nil }
    precondition(SQLiteOutboxStorage.item(id: 1, kind: kind, body: body, identity: identity, identityIsNull: identity == nil,
                                        created: created) != nil)
    return 0
}
