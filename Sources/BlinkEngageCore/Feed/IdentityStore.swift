#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import FoundationEssentials

/// The registered identities and the device id, kept in the storage directory so that a returning user needs
/// no new registration. Written to a temporary name and renamed, so a crash leaves the old file or the new one.
final class IdentityStore: Sendable {
    struct Registration: Equatable, Sendable {
        var userID: String
        var token: String
    }

    struct Snapshot: Equatable, Sendable {
        /// The identity set by the host, nil after a log-out.
        var current: String?
        /// Every identity registered on this device, so events reported under an earlier one still carry its token.
        var registrations: [String: Registration] = [:]
    }

    private let directory: String?

    init(directory: String?) { self.directory = directory }

    private var identityPath: String? { directory.map { $0 + "/identity.json" } }

    func load() -> Snapshot {
        guard let path = identityPath, let bytes = FileBytes.read(path) else { return Snapshot() }
        return Self.decode(bytes)
    }

    /// The stored form read back; whatever is damaged or untrustworthy in it is left out.
    static func decode(_ bytes: [UInt8]) -> Snapshot {
        guard let object = (try? JSONParser.parse(bytes))?.objectValue else { return Snapshot() }
        var snapshot = Snapshot(current: object.present("current")?.stringValue)
        for member in object.present("registrations")?.objectValue?.members ?? [] {
            guard let entry = member.value.objectValue, let userID = entry.present("user_id")?.stringValue,
                  let token = entry.present("token")?.stringValue, EngageRequests.isBearerToken(token) else { continue }
            snapshot.registrations[member.key] = Registration(userID: userID, token: token)
        }
        return snapshot
    }

    func save(_ snapshot: Snapshot) {
        guard let path = identityPath else { return }
        var members: [(key: String, value: JSONValue)] = []
        if let current = snapshot.current { members.append(("current", .string(current))) }
        let registrations = snapshot.registrations.sorted { $0.key < $1.key }.map { key, registration in
            (key: key, value: JSONValue.object(JSONObject([("user_id", .string(registration.userID)), ("token", .string(registration.token))])))
        }
        members.append(("registrations", .object(JSONObject(registrations))))
        FileBytes.replace(path, with: Array(JSONValue.object(JSONObject(members)).jsonText.utf8))
    }

    /// A random id made once per storage directory (once per process without one).
    func deviceID() -> String {
        guard let directory else { return UUID().uuidString.lowercased() }
        let path = directory + "/device_id"
        if let bytes = FileBytes.read(path), let text = String(validating: bytes, as: UTF8.self), !text.isEmpty { return text }
        let id = UUID().uuidString.lowercased()
        FileBytes.replace(path, with: Array(id.utf8))
        return FileBytes.read(path).flatMap { String(validating: $0, as: UTF8.self) } ?? id
    }
}
