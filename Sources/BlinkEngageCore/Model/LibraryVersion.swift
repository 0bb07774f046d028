/// The library version; the header's BE_VERSION_* macros must agree (a test checks).
public enum LibraryVersion {
    public static let major = 0
    public static let minor = 2
    public static let patch = 0
    public static let string = "\(major).\(minor).\(patch)"
}
