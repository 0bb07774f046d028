#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The C strings handed to the host from one decoded answer: a slot per tape position, each filled the first
/// time a host asks for that value (most values are never asked for) and kept at a stable address until the
/// answer's last owner goes. One per answer, shared by its offers and styles: one lock and one allocation
/// instead of a string object per field. A position is always made the same way by the one owner that reads it.
// Safe: `slots` is read and written only under `mutex`; a filled slot is never changed until deinit frees it.
public final class AnswerTexts: @unchecked Sendable {
    private let mutex = PthreadMutex()
    private let count: Int
    /// Allocated on the first request.
    private var slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?

    init(count: Int) { self.count = count }

    deinit {
        guard let slots else { return }
        for slot in 0..<count { free(slots[slot]) }
        slots.deallocate()
    }

    /// The text at `position`, made by `make` (a `malloc`ed C string, NULL-terminated) on the first request.
    func text(at position: Int, make: () -> UnsafeMutablePointer<CChar>) -> UnsafePointer<CChar>? {
        guard position >= 0, position < count else { return nil }
        mutex.lock()
        defer { mutex.unlock() }
        let table: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
        if let slots {
            table = slots
        } else {
            table = .allocate(capacity: count)
            table.initialize(repeating: nil, count: count)
            slots = table
        }
        if let made = table[position] { return UnsafePointer(made) }
        let made = make()
        table[position] = made
        return UnsafePointer(made)
    }

    /// A `malloc`ed, NUL-terminated copy of `bytes`.
    static func copy(_ bytes: UnsafeRawBufferPointer) -> UnsafeMutablePointer<CChar> {
        let storage = malloc(bytes.count + 1)!.assumingMemoryBound(to: CChar.self)
        if let base = bytes.baseAddress { memcpy(storage, base, bytes.count) }
        storage[bytes.count] = 0
        return storage
    }
}
