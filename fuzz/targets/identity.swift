// The stored identity: whatever is on disk reads as a snapshot (possibly empty), never a trap; every token it
// restores can go into an Authorization header.
@testable import BlinkEngageCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let snapshot = IdentityStore.decode(bytes)
    for registration in snapshot.registrations.values { precondition(EngageRequests.isBearerToken(registration.token)) }
    return 0
}
