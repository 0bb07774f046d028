@testable import BlinkEngageCore

/// A test's storage directory and database by path, as the SDK opens them.
extension StorageDirectory {
    static func at(_ path: String) throws -> StorageDirectory { try StorageDirectory.open(path: path) }
}

extension Database {
    /// The database of the directory at `path`, in the current format.
    static func current(at path: String) throws -> Database {
        guard case .ready(let database, _) = try StoreFormat.open(try StorageDirectory.at(path)) else {
            throw EngineFailure.invalidState("\(path) holds a newer format")
        }
        return database
    }
}
