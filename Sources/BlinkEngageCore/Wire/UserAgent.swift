/// The default `User-Agent`: `blinkengage/<version> (<os>; <arch>)`.
public enum UserAgent {
    public static var standard: String { "blinkengage/\(LibraryVersion.string) (\(operatingSystem); \(architecture))" }

    static var operatingSystem: String {
        #if os(Linux)
        return "Linux"
        #elseif os(macOS)
        return "macOS"
        #else
        return "unknown"
        #endif
    }

    static var architecture: String {
        #if arch(x86_64)
        return "x86_64"
        #elseif arch(arm64)
        return "arm64"
        #else
        return "unknown"
        #endif
    }
}
