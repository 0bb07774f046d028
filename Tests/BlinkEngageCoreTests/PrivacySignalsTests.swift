@testable import BlinkEngageCore
import Testing

/// Consent signals without I/O: what each setter accepts, and what goes on the wire.
struct PrivacySignalsTests {
    @Test(arguments: [("1YNN", true), ("1---", true), ("1NYN", true), ("1YN", false), ("2YNN", false), ("1YNX", false),
                      ("1ynn", false), ("1YNN ", false), ("", false)])
    func usPrivacyStrings(text: String, accepted: Bool) {
        #expect(PrivacySignals.isUSPrivacyString(text) == accepted)
    }

    @Test(arguments: [("CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA", true), ("CPXx.YAAA", true), ("a_b-c", true),
                      ("a+b", false), ("a/b", false), ("a b", false), (".abc", false), ("abc.", false), ("", false),
                      ("a\r\nb", false)])
    func tcfStrings(text: String, accepted: Bool) {
        #expect(PrivacySignals.isTCFString(text) == accepted)
    }

    @Test(arguments: [("7", true), ("7,8", true), ("2,6,7,8", true), ("7,,8", false), ("7, 8", false), (",7", false),
                      ("x", false), ("", false), ("-1", false), ("123456", false)])
    func sectionLists(text: String, accepted: Bool) {
        #expect(PrivacySignals.isSectionList(text) == accepted)
    }

    @Test func aRefusedValueChangesNothing() throws {
        var signals = PrivacySignals()
        try signals.setUSPrivacy("1YNN")
        #expect(throws: EngineFailure.self) { try signals.setUSPrivacy("1YN") }
        #expect(throws: EngineFailure.self) { try signals.setGPP("DBABM", sections: nil) }
        #expect(throws: EngineFailure.self) { try signals.setGDPR(applies: 2, consent: nil) }
        #expect(signals.encodedQuery == "us_privacy=1YNN")
    }

    @Test func signalsOverrideHostKeysAndRestrictionsDropIdentifiers() throws {
        var signals = PrivacySignals()
        try signals.setGDPR(applies: 1, consent: nil)
        let payload = [(key: "gdpr", value: "host"), (key: "ip", value: "203.0.113.7"), (key: "placement", value: "x")]
        #expect(signals.applied(to: payload).map(\.key) == ["ip", "placement", "gdpr"])
        try signals.setLimitTracking(1)
        #expect(signals.applied(to: payload).map { "\($0.key)=\($0.value)" } == ["placement=x", "gdpr=1", "lmt=1"])
        #expect(signals.encodedQuery == "gdpr=1&lmt=1")
    }

    @Test func gppSectionsAreEncodedInTheQuery() throws {
        var signals = PrivacySignals()
        try signals.setGPP("DBABM~CPX", sections: "7,8")
        #expect(signals.encodedQuery == "gpp=DBABM~CPX&gpp_sid=7%2C8")
        try signals.setGPP(nil, sections: nil)
        #expect(signals.encodedQuery.isEmpty)
    }
}
