// The registration answer: a token it accepts can always go into an Authorization header.
@testable import BlinkEngageCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let decoded = EngageRequests.decodeRegistration(bytes) {
        let request = HTTPRequest(method: .get, url: "http://127.0.0.1/", headers: [("Authorization", "Bearer \(decoded.token)")],
                                  timeoutMilliseconds: 1)
        do { try HTTPRequestRules.check(request) } catch { fatalError("an accepted token breaks a header: \(error)") }
    }
    return 0
}
