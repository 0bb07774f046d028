// JSON: the strict parser never traps, and what it accepts writes back to text it accepts again, equal.
@testable import BlinkEngageCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let value = try? JSONParser.parse(bytes) else { return 0 }
    let text = value.jsonText
    guard let again = try? JSONParser.parse(text) else { fatalError("written JSON does not parse: \(text)") }
    precondition(again.jsonText == text, "JSON text changed on a second round trip")
    return 0
}
