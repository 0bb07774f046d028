#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where an API key's files live: `<root>/<16 hex digits of FNV-1a-64(key)>`, so the key itself never
/// reaches the disk. `StorageDirectory.open(root:apiKey:)` creates and opens it.
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
}
