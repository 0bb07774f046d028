@testable import BlinkEngageCore
import TestSupport
import Testing
import Dispatch

struct MomentsResponseDecoderTests {
    func decode(_ text: String) -> Result<MomentsResponse, ServiceError> {
        MomentsResponseDecoder.decode(.success(HTTPResponse(status: 200, body: Array(text.utf8))))
    }

    func code(_ result: Result<MomentsResponse, ServiceError>) -> Int? {
        if case .failure(let error) = result { return error.code }
        return nil
    }

    /// Texts handed to Swift without checking their UTF-8 again (`String(answerText:)`) are the strings Swift's own
    /// check makes of them: every width of character, written as is or as escapes, and ASCII around them.
    @Test func answerTextsReadAsSwiftStringsEqualCheckedOnes() throws {
        let title = #"a – é \u00e9 \ud83d\ude00 😀 𝄞 \u2028 ü\"\\ end"#
        let body = #"{"data":{"offers":[{"id":1,"title":"\#(title)","cta_yes":"Ja, gerne – 🎁","mini_text":"plain"}]}}"#
        let offer = try #require(try decode(body).get().offers.first)
        for key in ["title", "cta_yes", "mini_text", "id"] {
            let text = try #require(offer.fieldText(key))
            let fast = String(answerText: text), checked = String(cString: text)
            #expect(fast == checked && fast.utf8.elementsEqual(checked.utf8) && fast.count == checked.count, "\(key)")
        }
        #expect(offer.field("title") == "a – é é 😀 😀 𝄞 \u{2028} ü\"\\ end")
        let json = String(answerText: offer.jsonText)
        #expect(json == String(cString: offer.jsonText) && json.contains("🎁"))
    }

    /// A creative's url, type, primary flag and pixel sizes: the last occurrence of a repeated key, keys spelled
    /// with escapes, sizes as numbers or strings of digits (escaped too), and everything else as no size.
    @Test(arguments: [
        (#"{"width":600,"height":"480"}"#, 600, 480, false, nil, nil),
        (#"{"width":1,"width":2,"\u0068eight":"\u0033\u0030"}"#, 2, 30, false, nil, nil),
        (#"{"width":600.0,"height":-5,"is_primary":"true"}"#, 0, 0, false, nil, nil),
        (#"{"width":4294967295,"height":4294967296}"#, 4294967295, 0, false, nil, nil),
        (#"{"width":"12345678901","height":true,"is_primary":true,"is_primary":false}"#, 0, 0, false, nil, nil),
        (#"{"width":"","height":null,"is_\u0070rimary":true,"type":"image","type":""}"#, 0, 0, true, nil, nil),
        (#"{"url":"https://cdn.example.com/a.png","url":"https://cdn.example.com/b.png","type":"x","is_primary":1}"#,
         0, 0, false, "https://cdn.example.com/b.png", "x"),
        (#"{"\u0075rl":"https://cdn.example.com/c.png","width":{},"height":[]}"#, 0, 0, false, "https://cdn.example.com/c.png", nil),
    ] as [(String, UInt32, UInt32, Bool, String?, String?)])
    func creativeMembersReadAsTheirRulesSay(_ creative: String, _ width: UInt32, _ height: UInt32, _ primary: Bool,
                                            _ url: String?, _ type: String?) throws {
        let offer = try #require(try decode(#"{"data":{"offers":[{"id":1,"creatives":[\#(creative)]}]}}"#).get().offers.first)
        let read = try #require(offer.creatives.first)
        #expect(read.pixelWidth == width && read.pixelHeight == height && read.isPrimary == primary)
        #expect(read.url == url && read.typeText.map { String(cString: $0) } == type)
    }

    /// Creatives are made the first time they are asked for: the main image comes from the first one marked
    /// primary without them, a creative of the wrong shape still refuses the offer, and threads racing to ask
    /// first all get the same objects (the C API lends them by address).
    @Test func creativesAreMadeOnceWhenFirstAskedFor() throws {
        let creatives = #"[{"url":"https://cdn.example/1.png"},{"url":"HTTPS://CDN.EXAMPLE/2.png","is_primary":true},"#
            + #"{"url":"https://cdn.example/3.png","is_primary":true}]"#
        let body = #"{"data":{"offers":[{"id":1,"image":"https://a.example/i.png","creatives":\#(creatives)},"#
            + #"{"id":2,"creatives":[{"url":"javascript:x","is_primary":true}],"image":"https://a.example/j.png"}]}}"#
        let offers = try decode(body).get().offers
        #expect(offers[0].mainImageURL == "https://cdn.example/2.png")
        // A primary creative whose URL is refused gives no main image of its own: "image" is read instead.
        #expect(offers[1].mainImageURL == "https://a.example/j.png")
        let seen = Locked<[[ObjectIdentifier]]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let identities = offers[0].creatives.map(ObjectIdentifier.init)
            seen.withLock { $0.append(identities) }
        }
        let made = seen.withLock { $0 }
        #expect(made.count == 8 && made[0].count == 3 && made.allSatisfy { $0 == made[0] })
        #expect(offers[0].creatives.map(ObjectIdentifier.init) == made[0])
        #expect(offers[0].creatives.map(\.isPrimary) == [false, true, true] && offers[1].creatives.first?.url == nil)
        for (shape, reason) in [(#""creatives":{}"#, "creatives is not an array"), (#""creatives":[{}, 7]"#, "a creative is not an object")] {
            guard case .failure(let error) = decode(#"{"data":{"offers":[{"id":1,\#(shape)}]}}"#) else {
                Issue.record("\(shape) was accepted")
                continue
            }
            #expect("\(error)".contains(reason), "\(error)")
        }
    }

    /// A host's key that is not a documented one is found by a walk over the offer's keys, the last occurrence
    /// winning; a documented one by its slot, a URL field only when it is an http(s) URL.
    @Test func hostKeysReadDocumentedAndOtherFields() throws {
        let body = #"{"data":{"offers":[{"id":1,"custom":"a","custom":"b","n":7,"o":{},"title":"T","pixel":"javascript:x"}]}}"#
        let offer = try #require(try decode(body).get().offers.first)
        func field(_ key: String) -> String? { key.withCString { offer.fieldText(cString: $0) }.map { String(cString: $0) } }
        #expect(field("custom") == "b" && field("n") == "7" && field("o") == nil && field("title") == "T")
        #expect(field("pixel") == nil && field("absent") == nil && field("") == nil && field("id") == "1")
    }

    /// URL fields the member walk reads as given and those it leaves to the URL parser: the last occurrence of a
    /// repeated key decides, a URL that is not its own href is handed out as the href, escapes are resolved first,
    /// and numbers, booleans and "" are no URL.
    @Test func urlFieldsReadAsGivenOrThroughTheParser() throws {
        let offerBody = #"{"id":1,"pixel":"javascript:x","pixel":"https://a.example/p","click_url":"https://a.example/c","#
            + #""click_url":"HTTPS://A.EXAMPLE/c","image":"https:\/\/a.example\/i.png","offerwall_url":5,"#
            + #""save_for_later_url":true,"qr_code_img":"","adv_pixel_url":"https://a.example/a","adv_pixel_url":"ftp://x/","#
            + #""creatives":[{"url":"HTTPS://CDN.EXAMPLE/1.png"},{"url":"https:\/\/cdn.example\/2.png"},{"url":7},{"url":""}]}"#
        let offer = try #require(try decode(#"{"data":{"offers":[\#(offerBody)]}}"#).get().offers.first)
        #expect(offer.pixelURL == "https://a.example/p" && offer.clickURL == "https://a.example/c")
        #expect(offer.field("image") == "https://a.example/i.png" && offer.mainImageURL == "https://a.example/i.png")
        #expect(offer.field("offerwall_url") == nil && offer.field("save_for_later_url") == nil && offer.field("qr_code_img") == nil)
        #expect(offer.advertiserPixelURL == nil)
        #expect(Set(offer.refusedURLKeys) == ["offerwall_url", "save_for_later_url", "adv_pixel_url"])
        #expect(offer.creatives.map(\.url) == ["https://cdn.example/1.png", "https://cdn.example/2.png", nil, nil])
    }

    @Test func decodesEveryFieldOfTheFixture() throws {
        let response = try MomentsResponseDecoder.decodeBody(try Fixtures.bytes("moments-offers.json"))
        #expect(response.offers.map(\.id) == ["4001", "4002", "4003"])
        let offer = response.offers[0]
        let expected: [String: String?] = [
            "id": "4001", "campaign_id": "1201", "title": "Get 90 days of Streamly Premium – free",
            "description": "Streamly gives you a welcome reward when you sign up today. Offer 1 of the demo set.",
            "click_url": "https://track.example.com/sdk/offer_click?o_id=4001&c_id=1201&p_id=1501&sess_id=5f2c0001e1&fp=USER_FP",
            "image": "https://cdn.example.com/campaigns/1201/main.png", "mini_text": nil,
            "terms_and_conditions": "<ul>\n <li>Must be 18 or older.</li>\n <li>New customers only.</li>\n</ul>",
            "pixel": "https://track.example.com/sdk/v2/impression/p.png?o_id=4001&sess_id=5f2c0001e1&cbuster=%7Bcbuster%7D",
            "adv_pixel_url": "https://adv.example.net/imp?o=4001&cb={cbuster}", "cta_yes": "Claim offer",
            "cta_no": "No, thanks", "useraction_cta": nil, "useraction_url": nil,
            "short_headline": "Streamly: welcome reward", "short_description": "Sign up and save.",
            "advertiser_name": "Streamly", "is_loyaltyboost": "false", "loyaltyboost_requirements": nil,
            "offerwall_url": "https://perks.example.com/", "qr_code_img": nil,
        ]
        for (key, value) in expected { #expect(offer.field(key) == value, "\(key)") }
        #expect(offer.closeBeaconURL == "https://track.example.com/event/record/close?o_id=4001&sess_id=5f2c0001e1")
        #expect(offer.noThanksBeaconURL == "https://track.example.com/event/record/no_thanks_click?o_id=4001&sess_id=5f2c0001e1")
        #expect(offer.creatives.count == 1)
        let creative = try #require(offer.creatives.first)
        #expect([creative.id, creative.url, creative.width, creative.height, creative.type, creative.creativeType, creative.aspectRatio]
            == ["9001", "https://cdn.example.com/c/9001.png", "600", "600", "image", "offer_image", "1.0"])
        #expect(creative.isPrimary && creative.pixelWidth == 600 && creative.pixelHeight == 600)
        #expect(creative.urlText.map { String(cString: $0) } == "https://cdn.example.com/c/9001.png")
        #expect(offer.tags == ["demo"])
        #expect(offer.mainImageURL == "https://cdn.example.com/c/9001.png")
        #expect(response.offers[1].mainImageURL == "https://cdn.example.com/campaigns/1202/main.png")
        #expect(response.offers[1].advertiserPixelURL == nil)
        #expect(response.offers[2].mainImageURL == nil)
        #expect(response.offers[2].field("is_loyaltyboost") == "true")
        #expect(response.offers[2].field("loyaltyboost_requirements") == "Complete your first purchase")
        #expect(response.privacyURL == "https://www.example.com/privacy")
        #expect(response.styles.string(atPath: "popup.borderRadius.bottom_left") == "8px")
        #expect(response.styles.string(atPath: "offerText.buttonNo.stroke") == "#CCCCCC")
        #expect(response.styles.string(atPath: "offerText.hide_adv_name") == "false")
        #expect(response.styles.string(atPath: "header.fontSize") == "16")
        #expect(response.styles.string(atPath: "footer.show_apx_links") == "true")
        #expect(response.styles.string(atPath: "settings.button_order") == "yes_no")
        #expect(response.styles.string(atPath: "popup.borderRadius")
            == #"{"top_left":"8px","top_right":"8px","bottom_right":"8px","bottom_left":"8px"}"#)
    }

    /// be_offer_json hands out the offer's own bytes: a slice of the answer, byte for byte, that parses to the
    /// very object the decoder read; on every fixture, for the Moments answer and for the feed.
    @Test(arguments: ["moments-offers.json", "offer-feed.json"])
    func offerJSONIsTheOffersOwnBytes(fixture: String) throws {
        let body = try Fixtures.bytes(fixture)
        var offers: [Offer] = []
        if fixture.hasPrefix("moments") {
            offers = try MomentsResponseDecoder.decodeBody(body).offers
        } else if case .feed(let feed)? = try? OfferFeedDecoder.decode(body) {
            offers = feed.groups.flatMap(\.offers)
        }
        #expect(!offers.isEmpty)
        for offer in offers {
            let text = Array(String(cString: offer.jsonText).utf8)
            let object = try #require(offer.tape.value(offer.position).objectValue)
            let start = try #require(object.sourceRange?.lowerBound)
            #expect(Array(body[start..<start + text.count]) == text, "offer \(offer.id)")
            #expect(try JSONParser.parse(text) == .object(object))
            #expect(offer.jsonText[text.count] == 0)
        }
        // Asked for again, and on a second decode in the other order: the same address each time, the same bytes
        // in either order (the NUL after one offer never falls inside another).
        let texts = offers.map { String(cString: $0.jsonText) }
        #expect(offers.allSatisfy { $0.jsonText == $0.jsonText })
        let again = fixture.hasPrefix("moments") ? try MomentsResponseDecoder.decodeBody(body).offers : {
            guard case .feed(let feed)? = try? OfferFeedDecoder.decode(body) else { return [] }
            return feed.groups.flatMap(\.offers)
        }()
        #expect(again.reversed().map { String(cString: $0.jsonText) } == texts.reversed())
    }

    @Test func numberSpellingAndMemberOrderSurviveInOfferJSON() throws {
        let body = #"{"data": {"offers": [{"z": 1.50, "id": 7, "a": 1e2,  "big": 12345678901234567890}]}}"#
        let offer = try #require(try MomentsResponseDecoder.decodeBody(Array(body.utf8)).offers.first)
        #expect(String(cString: offer.jsonText) == #"{"z": 1.50, "id": 7, "a": 1e2,  "big": 12345678901234567890}"#)
    }

    /// The privacy URL is handed out only as an absolute http(s) URL, escapes resolved, and stays at one address.
    @Test(arguments: [
        (#""https:\/\/example.com\/privacy""#, "https://example.com/privacy"), (#""javascript:alert(1)""#, nil),
        (#""""#, nil), (#""http://exa mple.com/""#, nil), ("null", nil),
    ] as [(String, String?)])
    func privacyURLIsAnHTTPURLOrNothing(_ value: String, _ expected: String?) throws {
        let response = try decode(#"{"data": {"offers": [{"id": 7}], "privacy_url": "# + value + "}}").get()
        #expect(response.privacyURL == expected)
        #expect(response.privacyURLText == response.privacyURLText)
    }

    @Test func ignoresUnknownKeysAndTreatsNullAsAbsent() throws {
        let response = try decode(#"""
        {"data": {"offers": [{"id": 7, "title": null, "surprise": {"x": [1]}, "click_url": "", "beacons": null,
          "creatives": null, "tags": null}], "styles": null, "privacy_url": null, "new_thing": 1}, "meta": {}}
        """#).get()
        let offer = response.offers[0]
        #expect(offer.title == nil)
        #expect(offer.clickURL == nil)
        #expect(offer.closeBeaconURL == nil)
        #expect(offer.creatives.isEmpty)
        #expect(response.privacyURL == nil)
        #expect(response.styles.string(atPath: "popup.background") == nil)
        #expect(String(cString: offer.jsonText).contains(#""surprise": {"x": [1]}"#))  // as received
    }

    @Test func acceptsTheLegacyAliases() throws {
        let response = try decode(#"{"data": {"offers": [{"id": 8, "name": "Old title", "creative_url": "https://x/y.png"}]}}"#).get()
        #expect(response.offers[0].title == "Old title")
        #expect(response.offers[0].mainImageURL == "https://x/y.png")
        #expect(response.offers[0].field("name") == "Old title")
    }

    /// A documented field's text is found once, at decode (`OfferMembers.texts`): each case the read rules name,
    /// read by name and by key.
    @Test(arguments: [
        // The last occurrence wins, "" and null read as absent, and title falls back to the legacy name.
        (#""title": "first", "title": "last""#, "title", "last"), (#""ti\u0074le": "Escaped key""#, "title", "Escaped key"),
        (#""\u0074\u0069\u0074\u006c\u0065": "All escaped", "cta_yes\u0000": "x""#, "title", "All escaped"),
        (#""title": "x", "title": null, "name": "Old""#, "title", "Old"), (#""title": "", "name": "Old""#, "title", "Old"),
        (#""title": {"a": 1}"#, "title", nil), (#""name": "Old""#, "name", "Old"),
        // Numbers and literals read as spelled; containers read as absent.
        (#""campaign_id": 1201"#, "campaign_id", "1201"), (#""is_loyaltyboost": false"#, "is_loyaltyboost", "false"),
        (#""campaign_id": -1.5e3"#, "campaign_id", "-1.5e3"), (#""mini_text": [1]"#, "mini_text", nil),
        (#""cta_yes": "Ja \u2013 \"gern\"""#, "cta_yes", "Ja – \"gern\""),
        // URL fields: as given, rewritten to their href, or refused; image falls back to creative_url.
        (#""click_url": "https://a.example/x""#, "click_url", "https://a.example/x"),
        (#""click_url": "HTTPS://A.Example/x""#, "click_url", "https://a.example/x"),
        (#""pixel": "javascript:alert(1)""#, "pixel", nil),
        (#""image": "ftp://a/b.png", "creative_url": "https://c.example/y.png""#, "image", "https://c.example/y.png"),
        (#""creative_url": "HTTP://C.example/y.png""#, "image", "http://c.example/y.png"),
        (#""image": "HTTPS://I.example/a.png", "creative_url": "https://c.example/y.png""#, "image", "https://i.example/a.png"),
        (#""pixel": "HTTP://P.example", "click_url": "HTTP://C.example""#, "click_url", "http://c.example/"),
        (#""pixel": "HTTP://P.example", "click_url": "HTTP://C.example""#, "pixel", "http://p.example/"),
    ] as [(String, String, String?)])
    func documentedFieldsReadAsTheirRulesSay(members: String, key: String, expected: String?) throws {
        let offer = try #require(try decode(#"{"data": {"offers": [{"id": 9, \#(members)}]}}"#).get().offers.first)
        #expect(offer.field(key) == expected, "\(members)")
        let known = try #require(key.utf8CString.withUnsafeBytes { OfferKey(UnsafeRawBufferPointer(rebasing: $0.dropLast())) })
        #expect(offer.fieldText(known).map(String.init(cString:)) == expected, "\(members)")
        // Without creatives, the main image is what "image" reads.
        if known == .image { #expect(offer.mainImageURL == expected, "\(members)") }
    }

    @Test func settingsFallBackToDataSettingsKeyByKey() throws {
        let response = try decode(#"""
        {"data": {"offers": [{"id": 1}], "styles": {"settings": {"show_close": false}},
                  "settings": {"show_close": true, "close_delay": 3}}}
        """#).get()
        #expect(response.styles.string(atPath: "settings.show_close") == "false")
        #expect(response.styles.string(atPath: "settings.close_delay") == "3")
        #expect(response.styles.string(atPath: "settings.other") == nil)
    }

    @Test func skipsOffersWithoutAnIdAndLogs() throws {
        var logged: [String] = []
        let result = MomentsResponseDecoder.decode(.success(HTTPResponse(status: 200, body: Array(
            #"{"data": {"offers": [{"title": "no id"}, {"id": "12"}, {"id": 4.0e1}, {"id": 1.5}]}}"#.utf8))), warnings: &logged)
        let response = try result.get()
        #expect(response.offers.map(\.id) == ["12", "40"])
        #expect(logged.count == 2)
    }

    @Test func errorTable() {
        #expect(code(decode(#"{"data": {}}"#)) == 3)
        #expect(code(decode(#"{"data": {"offers": []}}"#)) == 3)
        #expect(code(decode(#"{"data": {"offers": [{"title": "no id"}]}}"#)) == 3)
        #expect(code(decode(#"{"data": {"offers": {}}}"#)) == 4)
        #expect(code(decode(#"{"data": {"offers": [1]}}"#)) == 4)
        #expect(code(decode(#"{"data": {"offers": [{"id": 1, "beacons": []}]}}"#)) == 4)
        #expect(code(decode(#"{"data": {"offers": [{"id": 1}], "styles": "dark"}}"#)) == 4)
        #expect(code(decode(#"{"offers": []}"#)) == 4)
        #expect(code(decode("not json")) == 4)
        #expect(code(MomentsResponseDecoder.decode(.failure(.tooLarge(8)))) == 4)
        #expect(code(MomentsResponseDecoder.decode(.failure(.network("reset")))) == 5)
        #expect(code(MomentsResponseDecoder.decode(.failure(.timeout("slow")))) == 5)
        let status = MomentsResponseDecoder.decode(.success(HTTPResponse(status: 429, body: Array(#"{"error": {"message": "slow down"}}"#.utf8))))
        guard case .failure(let error) = status else { Issue.record("expected a failure"); return }
        #expect(error.code == 6)
        #expect(error.httpStatus == 429)
        #expect(error.message == "HTTP status 429: slow down")
        guard case .failure(let cancelled) = MomentsResponseDecoder.decode(.failure(.cancelled)) else { return }
        #expect(cancelled.domain == .cancelled)
    }
}
