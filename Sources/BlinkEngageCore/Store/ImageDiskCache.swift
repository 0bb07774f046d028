#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The on-disk image cache: one file per URL in `<storage>/images/`, least recently used first out (a hit
/// touches the file's modification time), bounded by the bytes of its files. Images stay out of the
/// database so megabytes of pixels never pass through the outbox's write-ahead log.
///
/// A file is `BEIMG1\n`, the metadata (URL, Content-Type, ETag, Last-Modified, stored-at and fresh-until, and
/// the `Vary` variant when the answer had one, one per line) behind its 32-bit length, the body behind its 64-bit
/// length, and an FNV-1a checksum of all of that. A file that is short, long, fails its checksum or names another URL is deleted and read as a miss:
/// a damaged entry is never handed out. Files are replaced atomically, so two processes sharing the directory
/// read whole entries only.
///
/// Not thread-safe: its owner calls it from one thread at a time.
struct ImageDiskCache {
    static let magic = Array("BEIMG1\n".utf8)
    static let maximumMetadataBytes = 64 * 1024

    let directory: StorageDirectory
    let limitBytes: Int
    /// The largest body a file may hold (the transport's own cap); anything larger is damage.
    let maximumBodyBytes: Int

    /// The cache's folder in `storage`, created when missing (a link or file planted in its place is refused); nil
    /// when it cannot be made.
    init?(storage: StorageDirectory, limitBytes: Int, maximumBodyBytes: Int) {
        guard let directory = try? storage.subdirectory(Self.folderName) else { return nil }
        self.directory = directory
        self.limitBytes = limitBytes
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// The file of `url`: a 64-bit FNV-1a of the URL in hex (the URL itself is checked on read).
    static func fileName(for url: String) -> String {
        "\(String(FNV1a.hash(url.utf8), radix: 16))\(fileExtension)"
    }

    static let fileExtension = ".img"

    /// The cache's folder in a storage directory.
    static let folderName = "images"

    /// Whether a file of the cache's folder is an entry (not a write in progress).
    static func isEntryFile(_ name: String) -> Bool { name.hasSuffix(fileExtension) }

    /// The stored entry of `url`; nil when absent or damaged (a damaged file is deleted). A hit is a use.
    func entry(for url: String) -> (entry: ImageEntry?, wasDamaged: Bool) {
        let file = Self.fileName(for: url)
        let limit = Self.magic.count + 4 + Self.maximumMetadataBytes + 8 + maximumBodyBytes + 8
        guard let bytes = directory.contents(of: file, limit: limit) else {
            // There, but not ours to read: too large, a symbolic link, a FIFO, a directory. What is not a directory
            // is removed (removing a link never touches what it points to).
            switch directory.kind(of: file) {
            case .absent: return (nil, false)
            case .directory: return (nil, true)
            case .file: directory.remove(file)
            case .socket, .other:
                directory.remove(file)
                directory.noteRefused(file, because: "it is not a regular file")
            }
            return (nil, true)
        }
        guard let entry = Self.decode(bytes), entry.url == url else {
            directory.remove(file)
            return (nil, true)
        }
        directory.touch(file)
        return (entry, false)
    }

    /// Stores `entry`, then evicts least recently used files until the directory fits its limit. An image
    /// larger than the whole limit is not stored. Failures (a full disk) leave the cache as it was.
    func store(_ entry: ImageEntry) throws(EngineFailure) {
        // The framing around the image's bytes, which are written from where they are (no copy of an image).
        let (head, tail) = Self.framing(entry)
        guard head.count + entry.bytes.count + tail.count <= limitBytes else { return remove(entry.url) }
        let file = Self.fileName(for: entry.url)
        try head.withUnsafeBytes { head in
            tail.withUnsafeBytes { tail in
                Result { () throws(EngineFailure) in try directory.replace(file, withParts: [head, Self.body(entry), tail]) }
            }
        }.get()
        evict(keeping: file)
    }

    func remove(_ url: String) { directory.remove(Self.fileName(for: url)) }

    /// Deletes every file, leftovers of interrupted writes included.
    func removeAll() {
        for file in directory.files() { directory.remove(file.name) }
    }

    private func evict(keeping kept: String) {
        var files = directory.files().sorted { $0.modified < $1.modified }
        var total = files.reduce(0) { $0 + $1.size }
        while total > limitBytes, !files.isEmpty {
            let oldest = files.removeFirst()
            if oldest.name == kept { continue }
            directory.remove(oldest.name)
            total -= oldest.size
        }
    }

    // MARK: - The file format

    /// A file's bytes: `framing`'s head, the image, its tail.
    static func encode(_ entry: ImageEntry) -> [UInt8] {
        let (head, tail) = framing(entry)
        return head + body(entry) + tail
    }

    private static func body(_ entry: ImageEntry) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: entry.bytes.pointer, count: entry.bytes.count)
    }

    /// What comes before the image's bytes in a file (magic, metadata, the image's length) and after them (the
    /// checksum of everything before it).
    static func framing(_ entry: ImageEntry) -> (head: [UInt8], tail: [UInt8]) {
        let fields = [entry.url, entry.contentType, entry.etag ?? "", entry.lastModified ?? "",
                      String(entry.storedAt), String(entry.freshUntil)] + (entry.variant.map { [$0] } ?? [])
        let metadata = Array(fields.joined(separator: "\n").utf8)
        var head = magic
        head.reserveCapacity(magic.count + 4 + metadata.count + 8)
        LittleEndian.append(UInt32(metadata.count), to: &head)
        head += metadata
        LittleEndian.append(UInt64(entry.bytes.count), to: &head)
        var tail: [UInt8] = []
        LittleEndian.append(FNV1a.hash(body(entry), continuing: FNV1a.hash(head)), to: &tail)
        return (head, tail)
    }

    /// The entry a file holds, or nil for anything but a whole, intact file of this format. Every length is
    /// checked against the bytes that are really there before it is used.
    static func decode(_ bytes: [UInt8]) -> ImageEntry? {
        guard bytes.count >= magic.count + 4 + 8 + 8, bytes.starts(with: magic) else { return nil }
        let checksumAt = bytes.count - 8
        guard LittleEndian.read(UInt64.self, from: bytes, at: checksumAt) == FNV1a.hash(bytes[..<checksumAt]),
              let storedMetadataCount = LittleEndian.read(UInt32.self, from: bytes, at: magic.count) else { return nil }
        var offset = magic.count + 4
        let metadataCount = Int(storedMetadataCount)
        guard metadataCount <= maximumMetadataBytes, metadataCount <= checksumAt - offset - 8 else { return nil }
        let metadata = bytes[offset..<offset + metadataCount]
        offset += metadataCount
        guard let bodyCount = LittleEndian.read(UInt64.self, from: bytes, at: offset) else { return nil }
        offset += 8
        guard bodyCount == UInt64(checksumAt - offset) else { return nil }
        guard let text = String(validating: metadata, as: UTF8.self) else { return nil }
        let fields = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 6 || (fields.count == 7 && !fields[6].isEmpty), !fields[0].isEmpty, !fields[1].isEmpty,
              let storedAt = Int64(fields[4]), let freshUntil = Int64(fields[5]) else { return nil }
        return ImageEntry(url: fields[0], contentType: fields[1], etag: fields[2].isEmpty ? nil : fields[2],
                          lastModified: fields[3].isEmpty ? nil : fields[3], storedAt: storedAt, freshUntil: freshUntil,
                          bytes: StableBytes(Array(bytes[offset..<checksumAt])), variant: fields.count == 7 ? fields[6] : nil)
    }
}
