#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An Outbox instance's append-only journal in front of the outbox table. A report is one `write(2)` of one
/// record here: once it returns, the record is in the kernel's page cache and survives the death of the process,
/// the same promise as a SQLite commit in WAL mode with `synchronous=NORMAL`, at a twentieth of the cost (one
/// system call instead of six locks and two writes). The delivery thread sends reports from here, and moves what
/// must wait into the table in one transaction, which also records how far the journal is consumed
/// (`outbox_journal`), so a crash at any instant neither loses a record nor moves one twice.
///
/// Files are `<storage>/outbox-<random>.journal`, one per instance, held with `flock(2)` for the instance's life.
/// A journal whose lock can be taken belongs to an instance that died; whoever takes it moves what is left and
/// deletes it (`SQLiteOutboxStorage.recoverDeadJournals`). Lives inside `OutboxIntake`, under its lock: appends are
/// ordered with the hand-off of reports.
struct OutboxJournal: Sendable {
    static let prefix = "outbox-", suffix = ".journal"
    /// A journal is replaced by a fresh one once it is this large and fully moved, so recovery reads little.
    static let rotationBytes = 1 << 20
    /// Recovery reads a dead journal whole; one larger than this is not a journal this library wrote.
    static let maximumBytes = 256 << 20

    let name: String
    /// The storage directory it lives in.
    let directory: StorageDirectory
    private let descriptor: Int32
    /// Bytes of whole records written; a failed write is cut back to here.
    private(set) var size = 0
    /// A failed write could not be cut back: nothing more is appended (reports go to the table directly).
    private(set) var isBroken = false

    /// Creates and locks a new journal in `directory`.
    init(directory: StorageDirectory) throws(EngineFailure) {
        let name = Self.prefix + RandomID.make() + Self.suffix
        let descriptor = directory.createFile(name, append: true)
        guard descriptor >= 0 else { throw .io("cannot create \(directory.path)/\(name): \(FileIO.errorText())") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let reason = FileIO.errorText()
            close(descriptor)
            directory.remove(name)
            throw .io("cannot lock \(directory.path)/\(name): \(reason)")
        }
        (self.name, self.directory, self.descriptor) = (name, directory, descriptor)
    }

    /// Where it is, for log lines.
    var path: String { directory.path + "/" + name }

    static func isJournal(_ fileName: String) -> Bool { fileName.hasPrefix(prefix) && fileName.hasSuffix(suffix) }

    /// Appends one encoded record. A partial write (a full disk) is cut back, so the journal always ends on a
    /// whole record; when even that fails the journal takes no more records.
    mutating func append(_ record: [UInt8]) throws(EngineFailure) {
        guard !isBroken else { throw .io("the tracking journal \(path) was damaged by an earlier failed write") }
        do {
            try FileIO.writeAll(descriptor, record)
            size += record.count
        } catch {
            if FileIO.retrying({ ftruncate(descriptor, off_t(size)) }) != 0 { isBroken = true }
            throw error
        }
    }

    /// Closes the journal, deleting it when everything in it was moved (`consumed` bytes). A journal left
    /// behind is recovered by the next instance on this directory.
    func retire(consumed: Int) {
        if consumed >= size { directory.remove(name) }
        close(descriptor)
    }

    // MARK: - Recovery

    /// A dead instance's journal, locked by this process until `finish` deletes it.
    struct Dead {
        let name: String
        let directory: StorageDirectory
        let descriptor: Int32
        let bytes: [UInt8]

        /// Deletes the journal (its records are in the table) and lets go of it.
        func finish() {
            directory.remove(name)
            close(descriptor)
        }

        /// Lets go of it, leaving it for a later recovery (moving its records failed).
        func release() { close(descriptor) }
    }

    /// The journals in `directory` other than `ownName` whose writers are gone, each locked and read whole.
    /// A journal still locked by a live instance is skipped, and so is one another process recovered and
    /// deleted meanwhile (its lock is then on a file no longer in the directory).
    static func dead(in directory: StorageDirectory, except ownName: String?) -> [Dead] {
        var found: [Dead] = []
        for file in directory.files() where isJournal(file.name) && file.name != ownName {
            let descriptor = directory.openFile(file.name, O_RDONLY)
            guard descriptor >= 0 else { continue }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0, directory.names(file.name, descriptor),
                  let bytes = FileIO.contents(of: descriptor, limit: maximumBytes) else {
                close(descriptor)
                continue
            }
            found.append(Dead(name: file.name, directory: directory, descriptor: descriptor, bytes: bytes))
        }
        return found
    }
}
