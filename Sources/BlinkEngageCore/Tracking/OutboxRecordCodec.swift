/// The on-disk form of an item: a header line `BEOX1 <crc32 hex> <length>` and the JSON payload. A record
/// whose length or checksum does not match is torn or damaged and is never read as whole.
enum OutboxRecordCodec {
    static let magic = "BEOX1"

    enum Failure: Error, Equatable { case corrupt(String) }

    static func encode(_ item: OutboxItem) -> [UInt8] {
        var members: [(key: String, value: JSONValue)] = [("created_ms", .number(String(item.createdMilliseconds)))]
        switch item.payload {
        case .beacon(let url):
            members += [("kind", .string("beacon")), ("url", .string(url))]
        case .event(let json, let identity):
            members += [("kind", .string("event")), ("event_json", .string(json))]
            if let identity { members.append(("identity", .string(identity))) }
        }
        let payload = Array(JSONValue.object(JSONObject(members)).jsonText.utf8)
        let checksum = String(CRC32.checksum(payload), radix: 16)
        return Array("\(magic) \(checksum) \(payload.count)\n".utf8) + payload
    }

    static func decode(_ bytes: [UInt8], name: String) throws(Failure) -> OutboxItem {
        guard let newline = bytes.firstIndex(of: 0x0A) else { throw .corrupt("no header") }
        let header = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ")
        guard header.count == 3, header[0] == magic, let checksum = UInt32(header[1], radix: 16),
              let length = Int(header[2]) else { throw .corrupt("bad header") }
        let payload = Array(bytes[(newline + 1)...])
        guard payload.count == length else { throw .corrupt("length \(payload.count), expected \(length)") }
        guard CRC32.checksum(payload) == checksum else { throw .corrupt("checksum mismatch") }
        guard let object = (try? JSONParser.parse(payload))?.objectValue,
              case .number(let createdText)? = object["created_ms"], let created = Int64(createdText)
        else { throw .corrupt("bad payload") }
        switch object["kind"]?.stringValue {
        case "beacon"?:
            guard let url = object["url"]?.stringValue else { throw .corrupt("beacon without url") }
            return OutboxItem(name: name, createdMilliseconds: created, payload: .beacon(url: url))
        case "event"?:
            guard let json = object["event_json"]?.stringValue else { throw .corrupt("event without body") }
            return OutboxItem(name: name, createdMilliseconds: created,
                              payload: .event(json: json, identity: object["identity"]?.stringValue))
        default:
            throw .corrupt("unknown kind")
        }
    }
}
