#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where an API key's files live: `<root>/<16 hex digits of FNV-1a-64(key)>`, so the key itself never
/// reaches the disk. Directories are created 0700.
public enum StorageLocation {
    /// The 64-bit FNV-1a hash of the key's UTF-8 bytes as 16 lower-case hex digits.
    public static func directoryName(forAPIKey apiKey: String) -> String {
        let hex = String(FNV1a.hash(apiKey.utf8), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The default root: `$XDG_STATE_HOME/blinkengage` when that is absolute, else
    /// `$HOME/.local/state/blinkengage`, else the password database's home; nil when none is known.
    public static func defaultRoot(environment: (String) -> String? = { name in getenv(name).map { String(cString: $0) } }) -> String? {
        if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") { return state + "/blinkengage" }
        if let home = environment("HOME"), home.hasPrefix("/") { return home + "/.local/state/blinkengage" }
        if let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir {
            let home = String(cString: directory)
            if home.hasPrefix("/") { return home + "/.local/state/blinkengage" }
        }
        return nil
    }

    /// The key's directory below `root` (made or not).
    public static func directory(root: String, apiKey: String) -> String {
        (root.hasSuffix("/") ? String(root.dropLast()) : root) + "/" + directoryName(forAPIKey: apiKey)
    }

    /// Creates (0700) and checks the key's directory below `root`; returns its path.
    public static func prepare(root: String, apiKey: String) throws(EngineFailure) -> String {
        let directory = self.directory(root: root, apiKey: apiKey)
        try makeDirectories(directory)
        guard access(directory, W_OK | X_OK | R_OK) == 0 else {
            throw .io("the storage directory \(directory) is not writable (\(String(cString: strerror(errno))))")
        }
        return directory
    }

    /// `mkdir -p` with mode 0700 for every directory it creates.
    static func makeDirectories(_ path: String) throws(EngineFailure) {
        guard path.hasPrefix("/") || !path.isEmpty else { throw .io("empty storage path") }
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o700) != 0, errno != EEXIST {
                throw .io("cannot create \(current): \(String(cString: strerror(errno)))")
            }
        }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw .io("\(path) is not a directory")
        }
    }
}
