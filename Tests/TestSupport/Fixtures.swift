import Foundation

/// The example answers the sandbox serves, read as bytes.
public enum Fixtures {
    public static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: ProjectPaths.fixtures.appendingPathComponent(name)))
    }
}
