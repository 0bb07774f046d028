/// The record format of an outbox journal (see `OutboxJournal`): one report per record, little-endian,
///
///     record  := length u32 | checksum u32 | body        (length counts the body; checksum: FNV-1a of the body, folded)
///     body    := kind u8 | created_ms i64 | text body | text identity | text privacy
///     text    := length u32 | UTF-8 bytes                 (identity: length 0xFFFF_FFFF for none)
///
/// Decoding trusts nothing: every length is checked against what is left, a record over `maximumBody` or with
/// a wrong checksum ends the readable part (a record torn by the death of its writer, or damage).
enum JournalRecord {
    static let headerSize = 8
    /// The largest body written or read: identities are capped at 4 KiB and events and beacons are far smaller.
    static let maximumBody = 1 << 20
    private static let noIdentity = UInt32.max

    struct Decoded: Equatable {
        var payload: OutboxItem.Payload
        var createdMilliseconds: Int64
        /// The offset just past this record in the journal.
        var end: Int
    }

    /// The bytes of one record, or nil when the item is larger than `maximumBody`.
    static func encode(_ payload: OutboxItem.Payload, createdMilliseconds: Int64) -> [UInt8]? {
        var body: [UInt8] = []
        let kind: UInt8, text: String, identity: String?, privacy: String
        switch payload {
        case .beacon(let url): (kind, text, identity, privacy) = (0, url, nil, "")
        case .event(let json, let id, let query): (kind, text, identity, privacy) = (1, json, id, query)
        }
        let size = 1 + 8 + 12 + text.utf8.count + (identity?.utf8.count ?? 0) + privacy.utf8.count
        guard size <= maximumBody else { return nil }
        body.reserveCapacity(headerSize + size)
        LittleEndian.append(UInt32(size), to: &body)
        LittleEndian.append(UInt32(0), to: &body)  // the checksum, once the body is written
        body.append(kind)
        LittleEndian.append(UInt64(bitPattern: createdMilliseconds), to: &body)
        appendText(text, to: &body)
        if let identity { appendText(identity, to: &body) } else { LittleEndian.append(noIdentity, to: &body) }
        appendText(privacy, to: &body)
        let sum = checksum(body[headerSize...])
        for index in 0..<4 { body[4 + index] = UInt8(truncatingIfNeeded: sum >> (8 * index)) }
        return body
    }

    /// The records of `bytes` from `offset` on, up to the first that is torn or damaged; `damaged` says
    /// whether anything was left unread.
    static func decode(_ bytes: [UInt8], from offset: Int = 0) -> (records: [Decoded], damaged: Bool) {
        var records: [Decoded] = []
        var position = max(0, offset)
        while position < bytes.count {
            guard let record = decodeOne(bytes, at: position) else { return (records, true) }
            records.append(record)
            position = record.end
        }
        return (records, false)
    }

    private static func decodeOne(_ bytes: [UInt8], at start: Int) -> Decoded? {
        var reader = Reader(bytes: bytes, position: start)
        guard let length = reader.u32(), let sum = reader.u32(), Int(length) <= maximumBody,
              Int(length) <= bytes.count - reader.position else { return nil }
        let end = reader.position + Int(length)
        guard checksum(bytes[reader.position..<end]) == sum else { return nil }
        reader.limit = end
        guard let kind = reader.u8(), let created = reader.u64(), let text = reader.text() else { return nil }
        let identity: String?
        if reader.peekU32() == noIdentity {
            _ = reader.u32()
            identity = nil
        } else {
            guard let value = reader.text() else { return nil }
            identity = value
        }
        guard let privacy = reader.text(), reader.position == end else { return nil }
        let payload: OutboxItem.Payload
        switch kind {
        case 0: payload = .beacon(url: text)
        case 1: payload = .event(json: text, identity: identity, privacy: privacy)
        default: return nil
        }
        return Decoded(payload: payload, createdMilliseconds: Int64(bitPattern: created), end: end)
    }

    private static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        let hash = FNV1a.hash(bytes)
        return UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
    }

    private static func appendText(_ text: String, to bytes: inout [UInt8]) {
        LittleEndian.append(UInt32(text.utf8.count), to: &bytes)
        bytes.append(contentsOf: text.utf8)
    }

    /// Bounds-checked little-endian reads inside `position..<limit`.
    private struct Reader {
        let bytes: [UInt8]
        var position: Int
        lazy var limit = bytes.count

        init(bytes: [UInt8], position: Int) {
            self.bytes = bytes
            self.position = position
        }

        mutating func integer<T: FixedWidthInteger>(_ type: T.Type) -> T? {
            guard let value = LittleEndian.read(type, from: bytes, at: position, end: limit) else { return nil }
            position += T.bitWidth / 8
            return value
        }

        mutating func u8() -> UInt8? { integer(UInt8.self) }
        mutating func u32() -> UInt32? { integer(UInt32.self) }
        mutating func u64() -> UInt64? { integer(UInt64.self) }

        mutating func peekU32() -> UInt32? {
            let saved = position
            defer { position = saved }
            return u32()
        }

        /// A length-prefixed string; nil when it runs past the limit or is not UTF-8.
        mutating func text() -> String? {
            guard let length = u32(), Int(length) <= limit - position else { return nil }
            let end = position + Int(length)
            defer { position = end }
            return String(validating: bytes[position..<end], as: UTF8.self)
        }
    }
}
