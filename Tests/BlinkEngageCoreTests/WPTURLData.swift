import Foundation
import TestSupport
@testable import BlinkEngageCore

/// The entries of web-platform-tests' urltestdata.json (WHATWG's URL tests), which live beside the checkout in
/// ../shared/fixtures/wpt with their licence and are never copied into the project.
enum WPTURLData {
    struct Entry {
        let input: String
        let base: String?
        let failure: Bool
        let href: String?
        let protocolName: String?
        let hostname: String?

        /// Valid and http(s): what a field must hand out, as `href`.
        var isValidHTTP: Bool { !failure && (protocolName == "http:" || protocolName == "https:") }

        /// Starts, after leading spaces and controls, with http:// or https://: an absolute URL whose meaning does
        /// not depend on the base the suite gives it.
        var isAbsoluteHTTP: Bool {
            let trimmed = input.drop { $0.unicodeScalars.allSatisfy { $0.value <= 0x20 } }.lowercased()
            return trimmed.hasPrefix("http://") || trimmed.hasPrefix("https://")
        }
    }

    static var file: URL { ProjectPaths.root.appendingPathComponent("../shared/fixtures/wpt/urltestdata.json").standardized }

    /// nil when the suite is not beside the checkout.
    static func entries() throws -> [Entry]? {
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        guard case .array(let items) = try JSONParser.parse([UInt8](data)) else { return [] }
        return items.compactMap { item in
            guard let object = item.objectValue, let input = object.present("input")?.stringValue else { return nil }
            return Entry(input: input, base: object.present("base")?.stringValue,
                         failure: object.present("failure") == .bool(true), href: object.present("href")?.stringValue,
                         protocolName: object.present("protocol")?.stringValue, hostname: object.present("hostname")?.stringValue)
        }
    }

    /// The kind, of those SECURITY.md lists ("URLs"), a valid URL that is refused falls under; nil for none.
    static func refusalReason(_ input: String, hostname: String?) -> String? {
        if input.unicodeScalars.contains(where: { $0.value < 0x20 }) { return "a C0 control (tab, CR, LF, NUL ...)" }
        if input.contains("\\") { return "a backslash" }
        if let hostname, hostname.split(separator: ".").contains(where: { $0.hasPrefix("xn--") }),
           input.unicodeScalars.contains(where: { !$0.isASCII }) || input.contains("%") {
            return "a Unicode host IDNA2008 refuses (libidn2)"
        }
        return nil
    }
}
