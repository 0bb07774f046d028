#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The right to deliver a storage directory's items, and how the processes on it hear each other: one type for
/// the lock file, its watch, and taking over (which adopts the directory's rows once).
///
/// The lock is `flock(2)` on a lock file this instance opens itself.
/// flock belongs to the open file description, so two SDKs in one process exclude each other as well as two
/// processes (fcntl locks would not); the kernel releases it when its owner dies, so a crashed owner's
/// items pass to the next instance that starts.
///
/// Its `watch` is how the processes on the directory hear each other (Platform/DirectoryWatch.swift); nil when
/// the system refused one, and then a waiting instance must look again now and then.
final class DirectoryOwnership: Sendable {
    private let descriptor: Int32
    let watch: DirectoryWatch?
    private let held = Locked(false)
    /// Serialises taking the directory; its value counts the takeovers. Not `Locked<Void>`: two empty states can
    /// share an address, which ThreadSanitizer then reports as one variable.
    private let acquisition = Locked(0, rank: .ownership)
    /// The process that opened the lock file; only it may unlock.
    private let ownerProcess = getpid()

    static let fileName = "outbox.lock"

    init(directory: StorageDirectory) throws(EngineFailure) {
        descriptor = try directory.openOwnFile(Self.fileName)
        watch = DirectoryWatch(directory: directory, lockFile: descriptor)
    }

    deinit { close(descriptor) }  // closing the description releases the lock

    /// Takes the lock if it is free. `held`: this instance holds it (now or already); `acquiredNow`: this call
    /// took it, so exactly one caller adopts the directory's items when threads race here.
    func tryAcquire() -> (held: Bool, acquiredNow: Bool) {
        held.withLock { held in
            guard !held else { return (true, false) }
            held = flock(descriptor, LOCK_EX | LOCK_NB) == 0
            if held { watch?.ownershipChanged(held: true) }
            return (held, held)
        }
    }

    var isHeld: Bool { held.withLock { $0 } }

    /// Whether this instance holds the directory, taking it when it is free and then running `adopt` (reading
    /// every row, other processes' included). One thread at a time takes it; the others wait for the adoption to
    /// finish, so none answers "owner" with it half done, and none adopts a second time.
    func claim(adopting adopt: () -> Void) -> Bool {
        acquisition.withLock { takeovers in
            if isHeld { return true }
            guard tryAcquire().acquiredNow else { return false }
            takeovers += 1
            adopt()
            return true
        }
    }

    /// Whether this instance hears the other processes on the directory now (the watch reconnects when it can);
    /// when it does not, a waiting instance looks again now and then.
    var hearsOthers: Bool { watch?.reconnect(isOwner: isHeld) ?? false }

    /// Gives the lock up. In a forked child it does nothing: the child shares the parent's open file
    /// description, and `LOCK_UN` there would release the parent's lock, letting two processes deliver.
    func release() {
        held.withLock { held in
            if held, getpid() == ownerProcess {
                flock(descriptor, LOCK_UN)
                // Then told: whoever hears it finds the lock free.
                watch?.ownershipChanged(held: false)
                watch?.announce()
            }
            held = false
        }
    }

    /// Tells the owner that this process queued items in the directory's database.
    func touch() { watch?.announce() }
}
