#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The storage directory, opened once: every file and folder of the store is reached relative to its descriptor
/// (`openat`, `mkdirat`, `unlinkat`, `renameat`, `fstatat`), never through a symbolic link, so nothing a neighbour
/// plants there (a link to a file elsewhere, a FIFO, a hard link) can make the SDK create, write, truncate or remove
/// anything outside it. This is the only type that opens, creates, renames or removes storage files; the others
/// name files, and keep their formats.
///
/// A planted entry where the store expects its own (a link or a FIFO named `blinkengage.db`, `outbox.lock` or
/// `images`) is refused: moved aside as `<name>.refused-<milliseconds>` (the link itself, never what it points to),
/// logged and counted (`be_stats.storage_refused`); then the store makes its own. SQLite opens its files by path:
/// `path` holds no symbolic link, and `Database` opens it with `SQLITE_OPEN_NOFOLLOW`, which refuses a link in any
/// component of it and in the `-wal` and `-shm` names.
final class StorageDirectory: Sendable {
    /// The directory's path with no symbolic link in it: for SQLite, the directory watch and log lines.
    let path: String
    private let descriptor: Int32
    private let refusals: Refusals

    /// What was refused, shared by a directory and its sub-directories.
    private final class Refusals: Sendable {
        let count = Locked<UInt64>(0)
        let log: @Sendable (String) -> Void
        init(log: @escaping @Sendable (String) -> Void) { self.log = log }
    }

    /// The kind of an entry, read without following a link.
    enum Kind: Equatable { case absent, file, directory, socket, other }

    private init(path: String, descriptor: Int32, refusals: Refusals) {
        (self.path, self.descriptor, self.refusals) = (path, descriptor, refusals)
    }

    deinit { close(descriptor) }

    /// Entries refused since the directory was opened (this one and its sub-directories).
    var refusedCount: UInt64 { refusals.count.withLock { $0 } }

    // MARK: - Opening

    /// The storage directory of `apiKey` below `root` (`StorageLocation`): `root` is the host's and may pass
    /// through links; the key's own directory below it is created 0700 and must be a real directory (a link or a
    /// file planted in its place is moved aside). `create: false` (an inspection) creates nothing and throws
    /// `.notFound` when there is no such directory.
    static func open(root: String, apiKey: String, create: Bool = true,
                     log: @escaping @Sendable (String) -> Void = { _ in }) throws(EngineFailure) -> StorageDirectory {
        let root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        if create { try makeDirectories(root) }
        let rootDescriptor = FileIO.retrying { systemOpen(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard rootDescriptor >= 0 else {
            if !create && errno == ENOENT { throw .notFound("no storage under \(root)") }
            throw .io("cannot open \(root): \(FileIO.errorText())")
        }
        defer { close(rootDescriptor) }
        guard let real = realpath(root, nil) else { throw .io("cannot resolve \(root): \(FileIO.errorText())") }
        let canonical = String(cString: real)
        free(real)
        let refusals = Refusals(log: log)
        let parent = StorageDirectory(path: canonical, descriptor: dup(rootDescriptor), refusals: refusals)
        let name = StorageLocation.directoryName(forAPIKey: apiKey)
        guard let directory = try parent.subdirectory(name, create: create) else {
            throw .notFound("no storage for this API key under \(root)")
        }
        guard faccessat(directory.descriptor, ".", R_OK | W_OK | X_OK, 0) == 0 || !create else {
            throw .io("the storage directory \(directory.path) is not writable (\(FileIO.errorText()))")
        }
        return directory
    }

    /// A directory given by its path (a quarantine to bring back, a test's): it must be a real directory.
    static func open(path: String, log: @escaping @Sendable (String) -> Void = { _ in }) throws(EngineFailure) -> StorageDirectory {
        let descriptor = FileIO.retrying { systemOpen(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        guard descriptor >= 0 else { throw .io("cannot open the directory \(path): \(FileIO.errorText())") }
        guard let real = realpath(path, nil) else {
            close(descriptor)
            throw .io("cannot resolve \(path): \(FileIO.errorText())")
        }
        defer { free(real) }
        return StorageDirectory(path: String(cString: real), descriptor: descriptor, refusals: Refusals(log: log))
    }

    /// The sub-directory `name`, created 0700 when missing (with `create`): anything else in its place is then
    /// refused and replaced. Without `create` (reading only) nothing is changed: nil when there is no real
    /// directory of that name.
    func subdirectory(_ name: String, create: Bool = true) throws(EngineFailure) -> StorageDirectory? {
        var reason: Int32 = 0
        for attempt in 0..<2 {
            if create, mkdirat(descriptor, name, 0o700) != 0, errno != EEXIST {
                throw .io("cannot create \(path)/\(name): \(FileIO.errorText())")
            }
            let opened = FileIO.retrying { openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
            if opened >= 0 {
                return StorageDirectory(path: path + "/" + name, descriptor: opened, refusals: refusals)
            }
            reason = errno
            guard create else { return nil }
            guard attempt == 0, reason == ELOOP || reason == ENOTDIR else { break }
            refuse(name, because: "it is not a directory")
        }
        throw .io("cannot open the directory \(path)/\(name): \(String(cString: strerror(reason)))")
    }

    /// `mkdir -p` with mode 0700 for every directory it creates (the host's root, which may pass through links).
    static func makeDirectories(_ path: String) throws(EngineFailure) {
        guard !path.isEmpty else { throw .io("empty storage path") }
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o700) != 0, errno != EEXIST {
                throw .io("cannot create \(current): \(FileIO.errorText())")
            }
        }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { throw .io("\(path) is not a directory") }
    }

    // MARK: - Entries

    /// What `name` is, without following a link.
    func kind(of name: String) -> Kind {
        guard let status = status(of: name) else { return .absent }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        case S_IFSOCK: return .socket
        default: return .other
        }
    }

    private func status(of name: String) -> stat? {
        var status = stat()
        return fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 ? status : nil
    }

    /// Whether `name` is absent or a regular file of one link (nothing shared with a file elsewhere); anything else
    /// is refused. For files the store opens by path through SQLite.
    @discardableResult
    func refuseUnlessPlainFile(_ name: String) -> Bool {
        guard let status = status(of: name) else { return true }
        if (status.st_mode & S_IFMT) == S_IFREG, status.st_nlink <= 1 { return true }
        refuse(name, because: (status.st_mode & S_IFMT) == S_IFREG ? "it has other links" : "it is not a regular file")
        return false
    }

    /// Moves the entry `name` (the link or file itself, never what a link points to) aside, logs and counts it.
    func refuse(_ name: String, because reason: String) {
        let aside = "\(name).refused-\(WallClock.milliseconds())"
        let moved = renameat(descriptor, name, descriptor, aside) == 0
        refusals.count.withLock { $0 += 1 }
        refusals.log("refused \(path)/\(name): \(reason); " + (moved ? "moved aside to \(aside)" : "left where it is, unused"))
    }

    /// Counts and logs an entry that was removed or skipped rather than moved aside (a cache's file).
    func noteRefused(_ name: String, because reason: String) {
        refusals.count.withLock { $0 += 1 }
        refusals.log("refused \(path)/\(name): \(reason); removed")
    }

    /// The regular files with their sizes and modification times (nanoseconds); [] when unreadable.
    func files() -> [(name: String, size: Int, modified: Int)] {
        entries(ofKind: S_IFREG).map { ($0.name, Int($0.status.st_size),
                                        $0.status.st_mtim.tv_sec &* 1_000_000_000 &+ $0.status.st_mtim.tv_nsec) }
    }

    /// The names of the real directories (not links to one).
    func directories() -> [String] { entries(ofKind: S_IFDIR).map(\.name) }

    private func entries(ofKind kind: mode_t) -> [(name: String, status: stat)] {
        let listed = FileIO.retrying { openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard listed >= 0 else { return [] }
        guard let stream = fdopendir(listed) else {
            close(listed)
            return []
        }
        defer { closedir(stream) }
        var found: [(name: String, status: stat)] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            guard name != ".", name != "..", let status = status(of: name), (status.st_mode & S_IFMT) == kind else { continue }
            found.append((name, status))
        }
        return found
    }

    // MARK: - Files

    /// Opens `name` without following a link (`O_NOFOLLOW | O_CLOEXEC`, and `O_NONBLOCK` so a FIFO never blocks)
    /// and returns the descriptor when it is a regular file; -1 otherwise (`errno` says why, `EINVAL` for a file
    /// of another kind). Writing opens also refuse a file with other links.
    func openFile(_ name: String, _ flags: Int32, mode: mode_t = 0o600) -> Int32 {
        let descriptor = FileIO.retrying { openat(self.descriptor, name, flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, mode) }
        guard descriptor >= 0 else { return -1 }
        var status = stat()
        let writing = flags & O_ACCMODE != O_RDONLY
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, !writing || status.st_nlink <= 1 else {
            close(descriptor)
            errno = EINVAL
            return -1
        }
        // Blocking from here on: a regular file's reads and writes never wait on another process anyway.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return descriptor
    }

    /// Opens (creating 0600 when absent) a file the store keeps open, a lock or a log: a planted link, FIFO or
    /// multiply linked file in its place is refused and a file of the store's own made instead.
    func openOwnFile(_ name: String, _ flags: Int32 = O_RDWR) throws(EngineFailure) -> Int32 {
        for attempt in 0..<2 {
            let descriptor = openFile(name, flags | O_CREAT)
            if descriptor >= 0 { return descriptor }
            guard attempt == 0, errno == ELOOP || errno == EINVAL || errno == ENXIO || errno == EISDIR else { break }
            refuse(name, because: kind(of: name) == .file ? "it has other links" : "it is not a regular file")
        }
        throw .io("cannot open \(path)/\(name): \(FileIO.errorText())")
    }

    /// Creates `name` new (`O_EXCL`), for writing.
    func createFile(_ name: String, append: Bool = false) -> Int32 {
        openFile(name, O_WRONLY | O_CREAT | O_EXCL | (append ? O_APPEND : 0))
    }

    /// The bytes of `name`, or nil when it does not exist, is not a regular file (not through a link) or is
    /// larger than `limit`.
    func contents(of name: String, limit: Int) -> [UInt8]? {
        let descriptor = openFile(name, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return FileIO.contents(of: descriptor, limit: limit)
    }

    /// The first `count` bytes of `name` (fewer when it is shorter); nil like `contents`.
    func head(of name: String, count: Int) -> [UInt8]? {
        let descriptor = openFile(name, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { buffer in FileIO.retrying { pread(descriptor, buffer.baseAddress!, count, 0) } }
        return read >= 0 ? Array(bytes.prefix(read)) : nil
    }

    /// Writes `parts` one after another to a temporary file and renames it over `name`, so a reader sees the old
    /// file or the new one, never a part. Nothing is left behind on failure.
    func replace(_ name: String, withParts parts: [UnsafeRawBufferPointer]) throws(EngineFailure) {
        let temporary = try written(parts, for: name)
        guard renameat(self.descriptor, temporary, self.descriptor, name) == 0 else {
            let reason = FileIO.errorText()
            remove(temporary)
            throw .io("cannot rename \(path)/\(temporary): \(reason)")
        }
    }

    func replace(_ name: String, with bytes: [UInt8]) throws(EngineFailure) {
        try bytes.withUnsafeBytes { buffer in Result { () throws(EngineFailure) in try replace(name, withParts: [buffer]) } }.get()
    }

    /// Writes `bytes` to a temporary file and gives it `name` only while no entry has that name, so a reader never
    /// sees a part and two processes making the file keep the first one whole. False, with nothing left behind,
    /// when the name is taken, the write fails, or this system cannot rename without replacing
    /// (`Platform.renameExclusive`): the caller then makes the file another way.
    func place(_ name: String, bytes: UnsafeRawBufferPointer) -> Bool {
        guard let temporary = try? written([bytes], for: name) else { return false }
        guard Platform.renameExclusive(in: descriptor, from: temporary, to: name) else {
            remove(temporary)
            return false
        }
        return true
    }

    /// A new temporary file beside `name` holding `parts` one after another: its name. Nothing is left behind on
    /// failure.
    private func written(_ parts: [UnsafeRawBufferPointer], for name: String) throws(EngineFailure) -> String {
        let temporary = "\(name).tmp-\(getpid())-\(RandomID.make().prefix(8))"
        let descriptor = createFile(temporary)
        guard descriptor >= 0 else { throw .io("cannot create \(path)/\(temporary): \(FileIO.errorText())") }
        defer { close(descriptor) }
        do {
            for part in parts { try FileIO.writeAll(descriptor, part) }
        } catch {
            remove(temporary)
            throw error
        }
        return temporary
    }

    /// Removes the entry `name` (a link itself, never what it points to); false when it was not there.
    @discardableResult
    func remove(_ name: String) -> Bool { unlinkat(descriptor, name, 0) == 0 }

    /// Removes the empty sub-directory `name` (never a link's target); false when it could not.
    @discardableResult
    func removeDirectory(_ name: String) -> Bool { unlinkat(descriptor, name, AT_REMOVEDIR) == 0 }

    /// Renames `name` to `newName` in `target` (this directory by default); false when it could not.
    @discardableResult
    func rename(_ name: String, to newName: String, in target: StorageDirectory? = nil) -> Bool {
        renameat(descriptor, name, (target ?? self).descriptor, newName) == 0
    }

    /// Sets the modification time of `name` to now (the LRU clock of file caches), not through a link.
    func touch(_ name: String) { _ = utimensat(descriptor, name, nil, AT_SYMLINK_NOFOLLOW) }

    /// Whether `name` and the open file `file` are the same file (it was not renamed or replaced since).
    func names(_ name: String, _ file: Int32) -> Bool {
        var opened = stat()
        guard let listed = status(of: name), fstat(file, &opened) == 0 else { return false }
        return opened.st_ino == listed.st_ino && opened.st_dev == listed.st_dev
    }
}

/// `open(2)` by path, for the two directories the store starts from (the type's own `open` hides the global one).
private func systemOpen(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
