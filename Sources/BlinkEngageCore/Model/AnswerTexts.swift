internal import CSystemShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The C strings handed to the host from one decoded answer, kept at stable addresses until the answer's last
/// owner goes. One per answer, shared by its offers and styles, behind one lock.
///
/// Scalars (strings, numbers, booleans) are read from `scalarTexts`: the first time a host asks for any text of
/// the answer, its bytes are copied once and every scalar is NUL-terminated in place (escapes resolved in place),
/// so each read is a lookup, not a copy (a copy per value cost about 270 instructions a read), and takes no lock
/// once they exist: they are published with a release store and found with an acquire load.
/// Containers (an offer's own JSON, a compact object) are copied one at a time when asked for, into a few large
/// blocks, through a slot per tape position.
// Safe: fields change only under `mutex`; `published` is set once (release) and read (acquire); bytes never change.
public final class AnswerTexts: @unchecked Sendable {
    public let tape: JSONTape
    private let mutex = PthreadMutex()
    /// The answer's bytes with each scalar NUL-terminated where it starts; made on the first request of a text.
    private var scalarTexts: RecycledBuffers.Buffer?
    /// `scalarTexts`'s address once it is complete, for reads without the lock.
    private let published = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 1)
    /// Containers' texts, a slot by tape position; allocated on the first request of one.
    private var slotMemory: RecycledBuffers.Buffer?
    /// Blocks the texts are copied into (recycled: given back for the next answer), and the free room at the
    /// end of the newest.
    private var blocks: [RecycledBuffers.Buffer] = []
    private var next: UnsafeMutableRawPointer?
    private var room = 0
    private static let blockBytes = 16 * 1024

    init(tape: JSONTape) {
        self.tape = tape
        published.initialize(to: nil)
    }

    deinit {
        published.deallocate()
        if let scalarTexts { RecycledBuffers.shared.give(scalarTexts) }
        if let slotMemory { RecycledBuffers.shared.give(slotMemory) }
        for block in blocks { RecycledBuffers.shared.give(block) }
    }

    /// The host-facing text of the value at `position` (see `JSONTape.withText`), NUL-terminated.
    func text(at position: Int) -> UnsafePointer<CChar>? {
        guard position >= 0, position < tape.count else { return nil }
        guard let offset = tape.scalarTextOffset(position) else { return made(at: position, .hostText) }
        let base = be_load_acquire(published) ?? makeScalarTexts()
        return UnsafePointer((base + offset).assumingMemoryBound(to: CChar.self))
    }

    /// Makes the scalar texts once, under the lock, and publishes them.
    @inline(never)
    private func makeScalarTexts() -> UnsafeMutableRawPointer {
        mutex.lock()
        defer { mutex.unlock() }
        if let scalarTexts { return scalarTexts.pointer }  // another thread made them while this one waited
        let texts = RecycledBuffers.shared.take(atLeast: tape.bytes.count + 1)
        tape.writeScalarTexts(into: texts.pointer.assumingMemoryBound(to: UInt8.self))
        scalarTexts = texts
        be_store_release(published, texts.pointer)
        return texts.pointer
    }

    /// The bytes of the value at `position` as received (an offer's own JSON), NUL-terminated.
    func source(at position: Int) -> UnsafePointer<CChar>? { made(at: position, .received) }

    /// A NUL-terminated copy of `text` kept as long as the answer: values the decoder makes rather than reads
    /// (an offer's id as normalised decimal text), in the same blocks, without an allocation of their own.
    func kept(_ text: String) -> KeptText {
        var text = text
        return text.withUTF8 { bytes in
            mutex.lock()
            defer { mutex.unlock() }
            return KeptText(pointer: keep(UnsafeRawBufferPointer(bytes)))
        }
    }

    private enum Form { case hostText, received }

    /// The slot at `position`, filled on the first request. The slots (one per tape position) are allocated on
    /// the first request of a container's text. A position is always asked for in one form (one owner reads it),
    /// so the first answer is the answer. A form, not a closure: a closure here retained the tape on every read.
    private func made(at position: Int, _ form: Form) -> UnsafePointer<CChar>? {
        guard position >= 0, position < tape.count else { return nil }
        mutex.lock()
        defer { mutex.unlock() }
        let table: UnsafeMutablePointer<UnsafePointer<CChar>?>
        if let slotMemory {
            table = slotMemory.pointer.assumingMemoryBound(to: UnsafePointer<CChar>?.self)
        } else {
            let memory = RecycledBuffers.shared.take(atLeast: tape.count * MemoryLayout<UnsafePointer<CChar>?>.stride)
            table = memory.pointer.bindMemory(to: UnsafePointer<CChar>?.self, capacity: tape.count)
            table.initialize(repeating: nil, count: tape.count)
            slotMemory = memory
        }
        if let made = table[position] { return made }
        let made: UnsafePointer<CChar>
        switch form {
        case .hostText: made = tape.withText(position) { keep($0) }
        case .received: made = tape.sourceBytes(position).withUnsafeBytes { keep($0) }
        }
        table[position] = made
        return made
    }

    /// A NUL-terminated copy of `bytes` in the newest block, or a block of its own when larger than one.
    private func keep(_ bytes: UnsafeRawBufferPointer) -> UnsafePointer<CChar> {
        let needed = bytes.count + 1
        if needed > room {
            let block = RecycledBuffers.shared.take(atLeast: max(needed, Self.blockBytes))
            blocks.append(block)
            next = block.pointer
            room = block.capacity
        }
        let storage = next!
        if let base = bytes.baseAddress { memcpy(storage, base, bytes.count) }
        storage.storeBytes(of: 0, toByteOffset: bytes.count, as: UInt8.self)
        next = storage + needed
        room -= needed
        return UnsafePointer(storage.assumingMemoryBound(to: CChar.self))
    }
}

/// A C string `AnswerTexts.kept` made: valid as long as those texts, which its holder keeps alive.
// Safe: an immutable address of bytes that were written before it existed and never change.
public struct KeptText: @unchecked Sendable {
    public let pointer: UnsafePointer<CChar>
}
