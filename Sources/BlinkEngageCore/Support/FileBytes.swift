#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whole-file reads and atomic replacement (temporary name, then rename), mode 0600.
enum FileBytes {
    /// The file's bytes, nil when it cannot be read. Reading stops past `limit`: a larger file comes back
    /// `limit + 1` bytes long, which no reader takes for a whole record.
    static func read(_ path: String, limit: Int = 1 << 20) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            bytes.append(contentsOf: buffer[..<count])
            if bytes.count > limit { return Array(bytes.prefix(limit + 1)) }
        }
        return bytes
    }

    @discardableResult
    static func replace(_ path: String, with bytes: [UInt8]) -> Bool {
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        fsync(descriptor)  // identities change rarely: worth a sync each time
        close(descriptor)
        guard written == bytes.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }
}
