internal import CSystemShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where queued items live between being reported and being delivered.
protocol OutboxStore: AnyObject, Sendable {
    /// Stores the item; when this returns the item survives the death of the process.
    func write(_ item: OutboxItem) throws(EngineFailure)
    /// Forgets a delivered or dropped item.
    func remove(_ name: String)
    /// The names of every stored item, in queue order.
    func names() -> [String]
    /// Reads one item; an unreadable record is removed and reported as `.corrupt`, a vanished one as nil.
    func load(_ name: String) throws(OutboxRecordCodec.Failure) -> OutboxItem?
    /// Forces written items to stable storage (power loss); death of the process alone needs no sync.
    func sync()
}

/// One file per item in `<storage>/outbox/`, written under a temporary name and renamed into place, so a
/// crash at any instant leaves either the whole record or none. fsync is batched (`sync`).
final class DiskOutboxStore: OutboxStore, Sendable {
    let directory: String
    /// Whether items were written since the last `sync`.
    private let unsynced = Locked(false)
    static let suffix = ".item"
    static let temporarySuffix = ".tmp"

    init(storageDirectory: String) throws(EngineFailure) {
        directory = storageDirectory + "/outbox"
        try StorageLocation.makeDirectories(directory)
    }

    func write(_ item: OutboxItem) throws(EngineFailure) {
        let bytes = OutboxRecordCodec.encode(item)
        let final = "\(directory)/\(item.name)\(Self.suffix)"
        let temporary = "\(directory)/\(item.name)\(Self.temporarySuffix)"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .io("cannot create \(temporary): \(String(cString: strerror(errno)))") }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            if result < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                close(descriptor)
                unlink(temporary)
                throw .io("cannot write \(temporary): \(reason)")
            }
            written += result
        }
        close(descriptor)
        guard rename(temporary, final) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .io("cannot store \(final): \(reason)")
        }
        unsynced.withLock { $0 = true }
    }

    func remove(_ name: String) {
        unlink("\(directory)/\(name)\(Self.suffix)")
    }

    func names() -> [String] {
        guard let stream = opendir(directory) else { return [] }
        var names: [String] = []
        var leftovers: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if name.hasSuffix(Self.suffix) { names.append(String(name.dropLast(Self.suffix.count))) }
            if name.hasSuffix(Self.temporarySuffix) { leftovers.append(name) }
        }
        closedir(stream)
        // A temporary file is a write that never completed, so its call never returned: nothing was promised.
        // Only old ones are removed: a young one may be another process's write in progress.
        for leftover in leftovers where ageSeconds(of: "\(directory)/\(leftover)") > 60 { unlink("\(directory)/\(leftover)") }
        return names.sorted()
    }

    func load(_ name: String) throws(OutboxRecordCodec.Failure) -> OutboxItem? {
        let path = "\(directory)/\(name)\(Self.suffix)"
        // nil: delivered meanwhile by the lock holder. A record is small; 4 MiB is far past any of ours.
        guard let bytes = FileBytes.read(path, limit: 4 * 1024 * 1024) else { return nil }
        do {
            return try OutboxRecordCodec.decode(bytes, name: name)
        } catch {
            unlink(path)
            throw error
        }
    }

    func sync() {
        let pending = unsynced.withLock { pending -> Bool in
            defer { pending = false }
            return pending
        }
        guard pending else { return }
        // One syncfs covers every file written since the last sync and the directory entries naming them,
        // where fsync would need each file reopened (and many are delivered and gone by now).
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        be_syncfs(descriptor)
        close(descriptor)
    }

    private func ageSeconds(of path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        return time(nil) - info.st_mtim.tv_sec
    }
}

/// Items kept in memory only, when no storage directory is usable.
final class MemoryOutboxStore: OutboxStore, Sendable {
    private let items = Locked<[String: OutboxItem]>([:])

    func write(_ item: OutboxItem) throws(EngineFailure) { items.withLock { $0[item.name] = item } }
    func remove(_ name: String) { _ = items.withLock { $0.removeValue(forKey: name) } }
    func names() -> [String] { items.withLock { $0.keys.sorted() } }
    func load(_ name: String) throws(OutboxRecordCodec.Failure) -> OutboxItem? { items.withLock { $0[name] } }
    func sync() {}
}
