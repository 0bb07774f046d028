#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The crash-loop breaker's storage: its record (`breaker`, replaced whole by a rename) and the data moved aside in
/// safe mode (`quarantine/<milliseconds>/`), in the storage directory. Only storage: the policy is
/// `CrashLoopBreaker`.
struct BreakerFile: Sendable {
    let directory: StorageDirectory
    static let recordName = "breaker", lockName = "breaker.lock", quarantineName = "quarantine"

    /// Holds `breaker.lock` shared while this instance is inside a window: the descriptor to close after (-1 when
    /// it could not be held), and whether another instance (this process's or another's) was inside one as this
    /// one came, its mark then being no crash. (The record is replaced by renames, so it cannot carry the lock.)
    func enterWindow() -> (descriptor: Int32, othersInside: Bool) {
        guard let descriptor = try? directory.openOwnFile(Self.lockName) else { return (-1, false) }
        let othersInside = flock(descriptor, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK
        // Shared from here on (converting the exclusive lock when this instance got it).
        guard flock(descriptor, LOCK_SH) == 0 else {
            close(descriptor)
            return (-1, othersInside)
        }
        return (descriptor, othersInside)
    }

    func read() -> CrashLoopBreaker.Record? {
        directory.contents(of: Self.recordName, limit: 64).flatMap { CrashLoopBreaker.Record(text: $0) }
    }

    /// Writes the record; false when the disk refused (the breaker then cannot count, and says so).
    @discardableResult
    func write(_ record: CrashLoopBreaker.Record) -> Bool {
        (try? directory.replace(Self.recordName, with: record.text)) != nil
    }

    /// Moves the database and the journals aside into a new quarantine directory; returns its path, or nil when
    /// nothing could be moved. The image cache stays: its entries are checked on every read.
    func moveAside() -> String? {
        let name = "\(WallClock.milliseconds())"
        guard let root = try? directory.subdirectory(Self.quarantineName), root.kind(of: name) == .absent,
              let target = try? root.subdirectory(name) else { return nil }
        var moved = 0
        for entry in directory.files() {
            let isDatabase = entry.name.hasPrefix(Database.fileName)
            guard isDatabase || OutboxJournal.isJournal(entry.name) else { continue }
            if directory.rename(entry.name, to: entry.name, in: target) { moved += 1 }
        }
        return moved > 0 ? target.path : nil
    }

    /// A quarantine left by a safe start, to bring back: renamed to `<name>.importing` first, so a start that dies
    /// bringing it back leaves it there for diagnosis rather than trying again.
    func takeQuarantine() -> StorageDirectory? {
        guard let root = try? directory.subdirectory(Self.quarantineName, create: false) else { return nil }
        let pending = root.directories().filter { !$0.hasSuffix(".importing") && !$0.hasSuffix(".kept") }
        guard let name = pending.sorted().first, root.rename(name, to: name + ".importing") else { return nil }
        return try? root.subdirectory(name + ".importing", create: false)
    }

    /// Marks a brought-back quarantine done: it is kept, as `.kept`, for diagnosis.
    func keep(_ quarantine: StorageDirectory) {
        guard let root = try? directory.subdirectory(Self.quarantineName, create: false),
              let importing = quarantine.path.split(separator: "/").last.map(String.init) else { return }
        root.rename(importing, to: String(importing.dropLast(".importing".count)) + ".kept")
    }
}
