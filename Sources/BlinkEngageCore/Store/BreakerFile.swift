#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The crash-loop breaker's storage: its record (`breaker`, replaced whole by a rename) and the data moved aside in
/// safe mode (`quarantine/<milliseconds>/`), in the storage directory. Only storage: the policy is
/// `CrashLoopBreaker`.
struct BreakerFile: Sendable {
    let directory: String
    var recordPath: String { directory + "/breaker" }
    var quarantineRoot: String { directory + "/quarantine" }

    /// Holds `breaker.lock` shared while this instance is inside a window: the descriptor to close after (-1 when
    /// it could not be held), and whether another instance (this process's or another's) was inside one as this
    /// one came, its mark then being no crash. (The record is replaced by renames, so it cannot carry the lock.)
    func enterWindow() -> (descriptor: Int32, othersInside: Bool) {
        let descriptor = open(directory + "/breaker.lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { return (-1, false) }
        let othersInside = flock(descriptor, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK
        // Shared from here on (converting the exclusive lock when this instance got it).
        guard flock(descriptor, LOCK_SH) == 0 else {
            close(descriptor)
            return (-1, othersInside)
        }
        return (descriptor, othersInside)
    }

    func read() -> CrashLoopBreaker.Record? {
        FileIO.contents(of: recordPath, limit: 64).flatMap { CrashLoopBreaker.Record(text: $0) }
    }

    /// Writes the record; false when the disk refused (the breaker then cannot count, and says so).
    @discardableResult
    func write(_ record: CrashLoopBreaker.Record) -> Bool {
        (try? FileIO.replace(recordPath, with: record.text)) != nil
    }

    /// Moves the database and the journals aside into a new quarantine directory; returns its path, or nil when
    /// nothing could be moved. The image cache stays: its entries are checked on every read.
    func moveAside() -> String? {
        let target = quarantineRoot + "/\(WallClock.milliseconds())"
        guard (mkdir(quarantineRoot, 0o700) == 0 || errno == EEXIST), mkdir(target, 0o700) == 0 else { return nil }
        var moved = 0
        for entry in FileIO.listing(directory) {
            let isDatabase = entry.name.hasPrefix(Database.fileName)
            guard isDatabase || OutboxJournal.isJournal(entry.name) else { continue }
            if rename(directory + "/" + entry.name, target + "/" + entry.name) == 0 { moved += 1 }
        }
        return moved > 0 ? target : nil
    }

    /// A quarantine left by a safe start, to bring back: renamed to `<name>.importing` first, so a start that dies
    /// bringing it back leaves it there for diagnosis rather than trying again.
    func takeQuarantine() -> String? {
        let pending = FileIO.directories(quarantineRoot).filter { !$0.hasSuffix(".importing") && !$0.hasSuffix(".kept") }
        guard let name = pending.sorted().first else { return nil }
        let taken = quarantineRoot + "/" + name + ".importing"
        return rename(quarantineRoot + "/" + name, taken) == 0 ? taken : nil
    }

    /// Marks a brought-back quarantine done: it is kept, as `.kept`, for diagnosis.
    func keep(_ path: String) {
        let kept = String(path.dropLast(".importing".count)) + ".kept"
        _ = rename(path, kept)
    }
}
