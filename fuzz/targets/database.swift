// The stored database: whatever bytes `blinkengage.db` holds (damaged pages, foreign tables, wrong types, any
// recorded format), the store opens it and brings it to its format, or leaves a newer one alone, or moves it
// aside after copying out what can be read, and reads queue rows and identities without trapping; every row it
// hands out is a valid item, every token it restores fits a header.
@testable import BlinkEngageCore
#if canImport(Glibc)
import Glibc
#endif

let directory: String = {
    var template = Array("/tmp/be-fuzz-db-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = directory + "/" + Database.fileName
    for suffix in ["-wal", "-shm"] { unlink(path + suffix) }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    _ = write(descriptor, data, size)
    close(descriptor)
    guard let storage = try? StorageDirectory.open(path: directory),
          case .ready(let database, _)? = try? StoreFormat.open(storage) else { return 0 }
    let (rows, _) = SQLiteOutboxStorage(database: database).load(afterID: 0)
    for row in rows {
        if case .beacon(let url) = row.item.payload { precondition(ServiceURL.isAbsoluteHTTP(url)) }
    }
    for registration in IdentityStore(database: database).load().registrations.values {
        precondition(EngageRequests.isBearerToken(registration.token))
    }
    // A file moved aside is not read again.
    if case .recovered(let aside, _) = database.openOutcome {
        for suffix in ["", "-wal", "-shm"] { unlink(directory + "/" + aside + suffix) }
    }
    for name in ["blinkengage.db", "blinkengage.db-wal", "blinkengage.db-shm"] { unlink(directory + "/" + name) }
    return 0
}
