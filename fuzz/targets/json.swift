// JSON: the strict parser never traps, and what it accepts writes back to text it accepts again, equal. The tape
// reader accepts exactly what the parser accepts, reads back the same value, and writes the same compact text.
@testable import BlinkEngageCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let tape = try? JSONTape(parsing: bytes)
    guard let value = try? JSONParser.parse(bytes) else {
        precondition(tape == nil, "the tape accepts what the parser refuses")
        return 0
    }
    guard let tape else { fatalError("the tape refuses what the parser accepts") }
    precondition(tape.value(0) == value, "the tape reads another value than the parser")
    let text = value.jsonText
    var compact: [UInt8] = []
    tape.write(0, to: &compact)
    precondition(compact == Array(text.utf8), "the tape writes other compact text than the parser")
    guard let again = try? JSONParser.parse(text) else { fatalError("written JSON does not parse: \(text)") }
    precondition(again.jsonText == text, "JSON text changed on a second round trip")
    return 0
}
