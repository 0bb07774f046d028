internal import CPlatform
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What one process hears of the others on its storage directory: one queued items there (the owner reads them
/// in), the owner let go of the directory or died (another takes over), an instance died (its journal is
/// recovered). Its own writes wake no one, and with nothing happening no thread wakes.
///
/// - Linux: inotify on the directory sees another process touch the ownership lock file (`announce`) or close
///   its files, which the kernel does when that process exits.
/// - Portable build: Unix-domain stream sockets, `outbox.sock` in the directory. The owner listens there; every
///   other instance keeps a connection to it and writes a byte to announce; each side sees end of file when the
///   other lets go or dies (the kernel closes the descriptors of a process that dies, even by SIGKILL). Where the
///   socket's path is too long for a socket address (about 100 bytes) or the connection cannot be made, the
///   instance says so through `isListening`, and its owner looks again every second, as without a watch.
/// - Elsewhere: kqueue's `EVFILT_VNODE` (Apple, the BSDs), `ReadDirectoryChangesW` (Windows).
final class DirectoryWatch: Sendable {
    #if BLINKENGAGE_PLATFORM_POSIX || !os(Linux)
    private let directory: StorageDirectory
    private let path: String
    private let sockets = Locked(Sockets())
    private let creator = getpid()

    private struct Sockets {
        /// The owner's listening socket, or -1.
        var listener: Int32 = -1
        /// The owner's connections from the other instances.
        var peers: [Int32] = []
        /// A non-owner's connection to the owner, or -1.
        var link: Int32 = -1
    }

    /// - Parameter lockFile: the ownership lock's descriptor (Linux touches it to announce).
    init?(directory: StorageDirectory, lockFile: Int32) {
        self.directory = directory
        path = directory.path + "/" + Self.socketName
    }

    static let socketName = "outbox.sock"

    /// Connects to the owner's socket; a planted entry of another kind there (a link to a socket elsewhere) is
    /// never connected to.
    private func connectToOwner() -> Int32 {
        directory.kind(of: Self.socketName) == .socket ? be_unix_connect(path) : -1
    }

    deinit {
        sockets.withLock { sockets in
            for descriptor in [sockets.listener, sockets.link] + sockets.peers where descriptor >= 0 { close(descriptor) }
        }
    }

    func descriptors() -> [Int32] {
        sockets.withLock { sockets in [sockets.listener, sockets.link].filter { $0 >= 0 } + sockets.peers }
    }

    func serviceReadable(_ descriptor: Int32) -> Bool {
        sockets.withLock { sockets in
            // Closed by another thread since the poll (ownership changed): the number may be another file's now.
            guard descriptor == sockets.listener || descriptor == sockets.link || sockets.peers.contains(descriptor) else {
                return false
            }
            if descriptor == sockets.listener {
                while true {
                    let peer = be_unix_accept(descriptor)
                    guard peer >= 0 else { break }
                    sockets.peers.append(peer)
                }
                return false
            }
            var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
            var open = true
            while true {
                let got = withUnsafeMutableBytes(of: &buffer) { read(descriptor, $0.baseAddress, $0.count) }
                if got > 0 { continue }
                if got < 0, errno == EINTR { continue }
                open = got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
                break
            }
            if !open {
                // The other side let go or died: that is the change.
                close(descriptor)
                if descriptor == sockets.link { sockets.link = -1 }
                sockets.peers.removeAll { $0 == descriptor }
            }
            return true
        }
    }

    func announce() {
        sockets.withLock { sockets in
            guard sockets.listener < 0 else { return }  // the owner announces nothing to itself
            if sockets.link < 0 { sockets.link = connectToOwner() }
            if sockets.link >= 0 { _ = be_unix_poke(sockets.link) }
        }
    }

    func ownershipChanged(held: Bool) {
        sockets.withLock { sockets in
            if held {
                if sockets.link >= 0 { close(sockets.link) }
                sockets.link = -1
                if sockets.listener < 0 {
                    directory.remove(Self.socketName)  // a dead owner's socket, or anything planted in its place
                    sockets.listener = be_unix_listen(path)
                }
            } else if getpid() == creator {
                // The lock is free already: whoever sees the end of file can take it.
                if sockets.listener >= 0 {
                    directory.remove(Self.socketName)
                    close(sockets.listener)
                }
                for peer in sockets.peers { close(peer) }
                sockets.listener = -1
                sockets.peers = []
            }
        }
    }

    func reconnect(isOwner: Bool) -> Bool {
        sockets.withLock { sockets in
            if isOwner { return sockets.listener >= 0 }
            if sockets.link < 0 { sockets.link = connectToOwner() }
            return sockets.link >= 0
        }
    }
    #else
    private let descriptor: Int32
    /// The directory's watch on `descriptor`.
    private let watch: Int32
    private let lockFile: Int32
    private let spare: SpareDescriptor

    /// - Parameters:
    ///   - lockFile: the ownership lock's descriptor (touched to announce).
    ///   - spare: where a descriptor let go of waits for the next watch (tests bring their own).
    init?(directory: StorageDirectory, lockFile: Int32, spare: SpareDescriptor = .shared) {
        let descriptor = spare.take() ?? be_directory_watch_open()
        let watch = descriptor >= 0 ? be_directory_watch_add(descriptor, directory.path) : -1
        guard watch >= 0 else {
            if descriptor >= 0 { close(descriptor) }
            return nil
        }
        (self.descriptor, self.watch, self.lockFile, self.spare) = (descriptor, watch, lockFile, spare)
    }

    deinit {
        be_directory_watch_remove(descriptor, watch)
        spare.keep(descriptor)
    }

    /// The descriptors to poll for readability; they change as the portable watch takes connections.
    func descriptors() -> [Int32] { [descriptor] }

    /// After a poll found `descriptor` readable: takes what is there. Whether it is a change worth looking at.
    func serviceReadable(_ descriptor: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        return true
    }

    /// Tells the other processes that this one changed something they must see (items moved into the
    /// database, the lock let go). Any thread.
    func announce() { futimens(lockFile, nil) }

    /// This instance now holds the directory's lock, or let go of it (after unlocking).
    func ownershipChanged(held: Bool) {}

    /// Makes sure the watch hears the others; false when it cannot now (the caller looks again later).
    func reconnect(isOwner: Bool) -> Bool { true }
    #endif
}

#if !(BLINKENGAGE_PLATFORM_POSIX || !os(Linux))
/// One inotify descriptor a watch let go of, kept for the next watch in this process. Closing one makes the
/// calling thread wait for the kernel to retire its watches (a grace period: 12 to 14 ms of a 14 ms
/// `be_sdk_shutdown` under `perf trace`), while removing the watch does not wait. At most one is kept, marked with
/// the process that kept it: a forked child shares its parent's, and closes its copy rather than use it.
final class SpareDescriptor: Sendable {
    static let shared = SpareDescriptor()
    private let kept = Locked<(descriptor: Int32, process: pid_t)?>(nil)

    /// The kept descriptor, now the caller's; nil when none is kept.
    func take() -> Int32? { exchange(nil) }

    /// Keeps `descriptor` (emptied of watches and events) for the next watch, or closes it when one is kept.
    func keep(_ descriptor: Int32) {
        if let unkept = exchange(descriptor) { close(unkept) }
    }

    /// Takes the kept descriptor (`offered` nil), or offers one: returns what the caller now holds. One inherited
    /// across `fork` is closed: the child's copy only, which retires nothing of the parent's watches.
    private func exchange(_ offered: Int32?) -> Int32? {
        let process = getpid()
        let (held, inherited) = kept.withLock { kept -> (Int32?, Int32?) in
            var inherited: Int32?
            if let spare = kept, spare.process != process {
                inherited = spare.descriptor
                kept = nil
            }
            guard let offered else {
                defer { kept = nil }
                return (kept?.descriptor, inherited)
            }
            guard kept == nil else { return (offered, inherited) }
            kept = (offered, process)
            return (nil, inherited)
        }
        if let inherited { close(inherited) }
        return held
    }
}
#endif
