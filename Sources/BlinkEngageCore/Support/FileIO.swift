#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The careful system calls on open descriptors: whole-file reads with a limit, writes that loop on partial writes,
/// EINTR retried, failures as `EngineFailure.io` with the errno text. Storage files are opened, named and removed
/// by `StorageDirectory` only; this works on what it opened.
enum FileIO {
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

    /// Whether `path` (a file the host names, such as a CA bundle; never a storage file) is a regular file this
    /// process can read.
    static func isReadableFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG && access(path, R_OK) == 0
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
