// The Moments guide's approach on Linux: URLSession (FoundationNetworking) and JSONDecoder into the same
// fields, every field of every offer read.
//   fetch_urlsession BASE_URL CALLS
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct Answer: Decodable { let data: DataPart }
struct DataPart: Decodable { let offers: [Offer]?; let count: Int?; let privacy_url: String? }
struct Beacons: Decodable { let close: String?; let no_thanks_click: String? }
struct Creative: Decodable {
    let id: Int?; let url: String?; let width: Int?; let height: Int?; let type: String?; let creative_type: String?
    let is_primary: Bool?; let aspect_ratio: Double?
}
struct Offer: Decodable {
    let id: Int; let campaign_id: Int?; let title: String?; let description: String?; let click_url: String?
    let image: String?; let mini_text: String?; let terms_and_conditions: String?; let pixel: String?
    let adv_pixel_url: String?; let cta_yes: String?; let cta_no: String?; let useraction_cta: String?
    let useraction_url: String?; let beacons: Beacons?; let creatives: [Creative]?; let short_headline: String?
    let short_description: String?; let advertiser_name: String?; let is_loyaltyboost: Bool?
    let loyaltyboost_requirements: String?; let tags: [String]?; let offerwall_url: String?; let qr_code_img: String?
    let save_for_later_url: String?; let offer_description: String?
}

func length(_ text: String?) -> Int { text?.utf8.count ?? 0 }

let arguments = CommandLine.arguments
guard arguments.count >= 3, let calls = Int(arguments[2]), let url = URL(string: arguments[1] + "/offers.json?api_key=bench-key") else { exit(2) }
var request = URLRequest(url: url)
request.httpMethod = "POST"
request.setValue("application/json", forHTTPHeaderField: "Content-Type")
request.setValue("application/json", forHTTPHeaderField: "Accept")
request.httpBody = Data(#"{"placement":"checkout"}"#.utf8)
let session = URLSession(configuration: .default)
var costs: [UInt64] = []
var sum = 0
var offerCount = 0
for _ in 0..<calls {
    let start = DispatchTime.now().uptimeNanoseconds
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var received: Data?
    session.dataTask(with: request) { data, _, _ in
        received = data
        done.signal()
    }.resume()
    done.wait()
    guard let body = received, let answer = try? JSONDecoder().decode(Answer.self, from: body) else { exit(1) }
    offerCount = answer.data.offers?.count ?? 0
    for offer in answer.data.offers ?? [] {
        sum += offer.id + (offer.campaign_id ?? 0) + length(offer.title) + length(offer.description) + length(offer.click_url)
        sum += length(offer.image) + length(offer.mini_text) + length(offer.terms_and_conditions) + length(offer.pixel)
        sum += length(offer.adv_pixel_url) + length(offer.cta_yes) + length(offer.cta_no) + length(offer.useraction_cta)
        sum += length(offer.useraction_url) + length(offer.beacons?.close) + length(offer.beacons?.no_thanks_click)
        sum += length(offer.short_headline) + length(offer.short_description) + length(offer.advertiser_name)
        sum += (offer.is_loyaltyboost == true ? 1 : 0) + length(offer.loyaltyboost_requirements) + length(offer.offerwall_url)
        sum += length(offer.qr_code_img) + length(offer.save_for_later_url) + length(offer.offer_description)
        for tag in offer.tags ?? [] { sum += tag.utf8.count }
        for creative in offer.creatives ?? [] {
            sum += (creative.id ?? 0) + length(creative.url) + (creative.width ?? 0) + (creative.height ?? 0) + length(creative.type)
            sum += length(creative.creative_type) + (creative.is_primary == true ? 1 : 0) + Int(creative.aspect_ratio ?? 0)
        }
    }
    costs.append(DispatchTime.now().uptimeNanoseconds - start)
}
costs.sort()
print(String(format: "%.1f %.1f %d %d", Double(costs[costs.count / 2]) / 1000, Double(costs[Int(0.99 * Double(costs.count - 1))]) / 1000,
             offerCount, sum))
