#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The thread-local detail message of the last failed call. Swift has no `thread_local`, so a pthread key
/// holds a malloc'd copy per thread, freed by the key's destructor when the thread ends.
enum LastError {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { free($0) }
        return key
    }()

    private static let empty = StaticCString("")

    static func set(_ message: String) {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, strdup(message))
        free(previous)
    }

    /// This thread's message; "" before the first failure. Valid until the next failure on this thread.
    static var message: UnsafePointer<CChar> {
        guard let raw = pthread_getspecific(key) else { return empty.pointer }
        return UnsafePointer(raw.assumingMemoryBound(to: CChar.self))
    }
}

/// A C view of a string literal, which lives in static storage for the life of the library.
// Safe: it points at immutable static storage.
struct StaticCString: @unchecked Sendable {
    let pointer: UnsafePointer<CChar>
    init(_ literal: StaticString) {
        pointer = UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
