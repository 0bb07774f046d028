@testable import BlinkEngageCore
import Testing

struct MomentsRequestBuilderTests {
    let builder = MomentsRequestBuilder(
        baseURL: "https://api.example.com/native/v4", apiKey: "key with space&more", userAgent: "blinkengage/test",
        development: false, timeoutMilliseconds: 1234)

    @Test func buildsThePostWithEncodedQueryHeadersAndBody() throws {
        var request = MomentsRequest()
        try request.setLoyaltyboost("1")
        try request.setCreative("0")
        try request.setCampaignID("c/1")
        try request.setPayload("placement", "checkout")
        try request.setPayload("adpx_fp", "é")
        let http = try builder.build(request)
        #expect(http.method == .post)
        #expect(http.url == "https://api.example.com/native/v4/offers.json?api_key=key%20with%20space%26more&loyaltyboost=1&creative=0&campaignId=c%2F1")
        #expect(http.header("Content-Type") == "application/json")
        #expect(http.header("Accept") == "application/json")
        #expect(http.header("User-Agent") == "blinkengage/test")
        #expect(http.timeoutMilliseconds == 1234)
        #expect(String(decoding: http.body ?? [], as: UTF8.self) == #"{"placement":"checkout","adpx_fp":"é"}"#)
    }

    @Test func optionalParametersAreSentOnlyWhenSet() throws {
        let http = try builder.build(MomentsRequest())
        #expect(http.url == "https://api.example.com/native/v4/offers.json?api_key=key%20with%20space%26more")
        #expect(http.body == Array("{}".utf8))
    }

    @Test func payloadUserAgentWinsAndDevelopmentAddsDev() throws {
        var request = MomentsRequest()
        try request.setPayload("ua", "Host/1")
        try request.setPayload("dev", "0")
        let development = MomentsRequestBuilder(baseURL: builder.baseURL, apiKey: "k", userAgent: "x", development: true, timeoutMilliseconds: 1)
        let http = try development.build(request)
        #expect(http.header("User-Agent") == "Host/1")
        #expect(String(decoding: http.body ?? [], as: UTF8.self) == #"{"ua":"Host/1","dev":"1"}"#)
    }

    @Test func noAPIKeyIsInvalidParameterBeforeAnyIO() {
        let keyless = MomentsRequestBuilder(baseURL: builder.baseURL, apiKey: "", userAgent: "x", development: false, timeoutMilliseconds: 1)
        #expect(throws: ServiceError.moments(.invalidParameter, "no API key is configured")) { try keyless.build(MomentsRequest()) }
    }

    @Test func unbuildableURLIsInvalidURL() {
        let broken = MomentsRequestBuilder(baseURL: "ftp://x", apiKey: "k", userAgent: "x", development: false, timeoutMilliseconds: 1)
        #expect { try broken.build(MomentsRequest()) } throws: { ($0 as? ServiceError)?.code == MomentsErrorCode.invalidURL.rawValue }
    }

    @Test func settersRefuseInvalidValues() throws {
        var request = MomentsRequest()
        #expect(throws: EngineFailure.self) { try request.setLoyaltyboost("3") }
        #expect(throws: EngineFailure.self) { try request.setCreative("yes") }
        #expect(throws: EngineFailure.self) { try request.setCampaignID("") }
        #expect(throws: EngineFailure.self) { try request.setPayload("", "x") }
        try request.setPayload("a", "1")
        try request.setPayload("b", "2")
        try request.setPayload("a", "3")
        try request.setPayload("b", nil)
        #expect(request.payload.map(\.key) == ["a"])
        #expect(request.payloadValue("a") == "3")
    }

    @Test func warnsPastTheDocumentedLimits() throws {
        var request = MomentsRequest()
        for index in 0..<11 { try request.setPayload("custom\(index)", "v") }
        try request.setPayload("placement", String(repeating: "x", count: 128))
        #expect(request.limitWarnings.count == 2)
        var within = MomentsRequest()
        for index in 0..<10 { try within.setPayload("custom\(index)", String(repeating: "x", count: 127)) }
        #expect(within.limitWarnings.isEmpty)
        // The limit counts characters, not bytes: 64 two-byte characters are within it, 128 are not.
        var accented = MomentsRequest()
        try accented.setPayload("placement", String(repeating: "é", count: 64))
        #expect(accented.limitWarnings.isEmpty)
        try accented.setPayload("placement", String(repeating: "é", count: 128))
        #expect(accented.limitWarnings.count == 1)
    }
}
