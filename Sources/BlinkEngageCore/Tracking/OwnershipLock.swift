#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The right to deliver a storage directory's items: `flock(2)` on a lock file this instance opens itself.
/// flock belongs to the open file description, so two SDKs in one process exclude each other as well as two
/// processes (fcntl locks would not); the kernel releases it when its owner dies, so a crashed owner's
/// items pass to the next instance that starts.
final class OwnershipLock: Sendable {
    private let descriptor: Int32
    private let held = Locked(false)
    /// The process that opened the lock file; only it may unlock.
    private let ownerProcess = getpid()

    init(directory: String) throws(EngineFailure) {
        let path = directory + "/outbox.lock"
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .io("cannot open \(path): \(String(cString: strerror(errno)))") }
    }

    deinit { close(descriptor) }  // closing the description releases the lock

    /// Takes the lock if it is free. `held`: this instance holds it (now or already); `acquiredNow`: this call
    /// took it, so exactly one caller adopts the directory's items when threads race here.
    func tryAcquire() -> (held: Bool, acquiredNow: Bool) {
        held.withLock { held in
            guard !held else { return (true, false) }
            held = flock(descriptor, LOCK_EX | LOCK_NB) == 0
            return (held, held)
        }
    }

    var isHeld: Bool { held.withLock { $0 } }

    /// Gives the lock up. In a forked child it does nothing: the child shares the parent's open file
    /// description, and `LOCK_UN` there would release the parent's lock, letting two processes deliver.
    func release() {
        held.withLock { held in
            if held, getpid() == ownerProcess {
                flock(descriptor, LOCK_UN)
                touch()  // a change other processes' directory watches see: the lock is free
            }
            held = false
        }
    }

    /// Changes the lock file's times: a change other processes' directory watches see.
    func touch() { futimens(descriptor, nil) }
}
