#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The file system calls of the engine's own files (the database is SQLite's business): whole-file reads with
/// a limit, and atomic replacement through a temporary name. Every call retries on EINTR and loops on partial
/// reads and writes; failures come back as `EngineFailure.io` with the errno text.
enum FileIO {
    /// The bytes of `path`, or nil when it does not exist, cannot be read, is larger than `limit`, or is not a
    /// regular file: a symbolic link is not followed (it could lead outside the storage directory) and a FIFO or
    /// device is not opened for reading (a FIFO would block the reader until some writer came).
    static func contents(of path: String, limit: Int) -> [UInt8]? {
        let descriptor = openRegularFile(path)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return contents(of: descriptor, limit: limit)
    }

    /// A read-only descriptor of `path` when it is a regular file (not through a symbolic link, and without
    /// blocking on a FIFO); -1 otherwise.
    static func openRegularFile(_ path: String) -> Int32 {
        let descriptor = retrying { open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
        guard descriptor >= 0 else { return -1 }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            return -1
        }
        return descriptor
    }

    /// The bytes of the open file `descriptor` from its start, or nil when it cannot be read, is larger than
    /// `limit` or is not a regular file.
    static func contents(of descriptor: Int32, limit: Int) -> [UInt8]? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size >= 0,
              status.st_size <= limit else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                retrying { pread(descriptor, buffer.baseAddress! + filled, buffer.count - filled, off_t(filled)) }
            }
            guard count > 0 else { return nil }  // an error, or the file shrank under us
            filled += count
        }
        return bytes
    }

    /// Writes `bytes` to a temporary file beside `path` and renames it over `path`, so a reader sees the old
    /// file or the new one, never a part. Nothing is left behind on failure.
    static func replace(_ path: String, with bytes: [UInt8]) throws(EngineFailure) {
        try bytes.withUnsafeBytes { buffer in Result { () throws(EngineFailure) in try replace(path, withParts: [buffer]) } }.get()
    }

    /// `replace` with the file's bytes in parts, written one after another: a large part (an image) is written
    /// from where it is, not copied into one buffer first.
    static func replace(_ path: String, withParts parts: [UnsafeRawBufferPointer]) throws(EngineFailure) {
        let temporary = "\(path).tmp-\(getpid())-\(RandomID.make().prefix(8))"
        let descriptor = retrying { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        guard descriptor >= 0 else { throw .io("cannot create \(temporary): \(errorText())") }
        do {
            for part in parts { try writeAll(descriptor, part) }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let reason = errorText()
            unlink(temporary)
            throw .io("cannot rename \(temporary): \(reason)")
        }
    }

    /// Writes every byte, looping on partial writes.
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(EngineFailure) {
        try bytes.withUnsafeBytes { buffer in Result { () throws(EngineFailure) in try writeAll(descriptor, buffer) } }.get()
    }

    static func writeAll(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) throws(EngineFailure) {
        var written = 0
        while written < buffer.count {
            let count = retrying { write(descriptor, buffer.baseAddress! + written, buffer.count - written) }
            guard count > 0 else { throw .io("write failed: \(errorText())") }
            written += count
        }
    }

    /// The regular files of `directory` with their sizes and modification times (nanoseconds); [] when unreadable.
    static func listing(_ directory: String) -> [(name: String, size: Int, modified: Int)] {
        entries(directory, ofKind: S_IFREG).map { ($0.name, Int($0.status.st_size),
                                                    $0.status.st_mtim.tv_sec &* 1_000_000_000 &+ $0.status.st_mtim.tv_nsec) }
    }

    /// The names of the directories in `directory` (not symbolic links to one); [] when unreadable.
    static func directories(_ directory: String) -> [String] { entries(directory, ofKind: S_IFDIR).map(\.name) }

    private static func entries(_ directory: String, ofKind kind: mode_t) -> [(name: String, status: stat)] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var found: [(name: String, status: stat)] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            guard name != ".", name != ".." else { continue }
            var status = stat()
            // lstat: a symbolic link is not one of ours, whatever it points to.
            guard lstat("\(directory)/\(name)", &status) == 0, (status.st_mode & S_IFMT) == kind else { continue }
            found.append((name, status))
        }
        return found
    }

    /// Whether `path` is a regular file this process can read.
    static func isReadableFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG && access(path, R_OK) == 0
    }

    /// Sets the modification time of `path` to now (the LRU clock of file caches).
    static func touch(_ path: String) {
        _ = utimensat(AT_FDCWD, path, nil, 0)
    }

    /// Runs a system call again while it fails with EINTR.
    static func retrying<T: BinaryInteger>(_ call: () -> T) -> T {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }

    /// The text of the current errno.
    static func errorText() -> String { String(cString: strerror(errno)) }
}
