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
/// Offers' own JSON is copied into a buffer the size of the answer, each offer at its own offset when first asked
/// for and NUL-terminated after its closing brace (offers never contain one another, so no NUL falls inside
/// another offer). Other containers' texts (a compact object) are copied one at a time when asked for, into a few
/// large blocks, through a slot per tape position.
// Safe: all writes are under `mutex`, each text's bytes once before it is handed out; `published` is release/acquire.
public final class AnswerTexts: @unchecked Sendable {
    public let tape: JSONTape
    /// Every `var` below is read and written only under this (or in deinit), so none has a dynamic exclusivity
    /// check, as `Locked`'s state has none: two of them cost about 160 instructions an offer's JSON.
    private let mutex = PthreadMutex()
    /// The answer's bytes with each scalar NUL-terminated where it starts; made on the first request of a text.
    @exclusivity(unchecked) private var scalarTexts: RecycledBuffers.Buffer?
    /// `scalarTexts`'s address once it is complete, for reads without the lock.
    private let published = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 1)
    /// Room for the answer's bytes, where each offer asked for is copied at its own offset with a NUL after it,
    /// and a bit per tape position for the offers copied there; both allocated on the first request of one.
    @exclusivity(unchecked) private var received: RecycledBuffers.Buffer?
    @exclusivity(unchecked) private var copiedOffers: [UInt64] = []
    /// Containers' texts, a slot by tape position; allocated on the first request of one.
    @exclusivity(unchecked) private var slotMemory: RecycledBuffers.Buffer?
    /// Blocks the texts are copied into (recycled: given back for the next answer), and the free room at the
    /// end of the newest.
    @exclusivity(unchecked) private var blocks: [RecycledBuffers.Buffer] = []
    @exclusivity(unchecked) private var next: UnsafeMutableRawPointer?
    @exclusivity(unchecked) private var room = 0
    private static let blockBytes = 16 * 1024

    init(tape: JSONTape) {
        self.tape = tape
        published.initialize(to: nil)
    }

    deinit {
        published.deallocate()
        if let scalarTexts { RecycledBuffers.shared.give(scalarTexts) }
        if let received { RecycledBuffers.shared.give(received) }
        if let slotMemory { RecycledBuffers.shared.give(slotMemory) }
        for block in blocks { RecycledBuffers.shared.give(block) }
    }

    /// The host-facing text of the value at `position` (see `JSONTape.withText`), NUL-terminated.
    func text(at position: Int) -> UnsafePointer<CChar>? {
        guard position >= 0, position < tape.count else { return nil }
        guard let offset = tape.scalarTextOffset(position) else { return madeHostText(at: position) }
        return scalarText(atOffset: offset)
    }

    /// The scalar text that starts `offset` bytes into the answer: what `text(at:)` returns for a scalar whose
    /// entry starts there (`JSONTape.scalarTextOffset`), for readers that found the offset once, at decode.
    @inline(__always)
    func scalarText(atOffset offset: Int) -> UnsafePointer<CChar> {
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

    /// The bytes of the offer at `position` as received, NUL-terminated, at the same address on every call. Only
    /// for values that never contain one another (offers: elements of their answer's offer arrays), as the NUL
    /// after one is written over the byte that follows it.
    func offerSource(at position: Int) -> UnsafePointer<CChar>? {
        guard position >= 0, position < tape.count, tape.isObject(position) else { return nil }
        mutex.lock()
        defer { mutex.unlock() }
        let room: UnsafeMutablePointer<UInt8>
        if let received {
            room = received.pointer.assumingMemoryBound(to: UInt8.self)
        } else {
            let memory = RecycledBuffers.shared.take(atLeast: tape.bytes.count + 1)
            room = memory.pointer.bindMemory(to: UInt8.self, capacity: tape.bytes.count + 1)
            received = memory
            copiedOffers = [UInt64](repeating: 0, count: (tape.count + 63) / 64)
        }
        let start = Int(tape.entry(position).start), end = start + Int(tape.entry(position).length)
        let (word, bit) = (position / 64, UInt64(1) << UInt64(position % 64))
        if copiedOffers[word] & bit == 0 {
            tape.bytes.withUnsafeBufferPointer { bytes in
                (room + start).update(from: bytes.baseAddress! + start, count: end - start)
            }
            room[end] = 0  // the byte after the closing brace, or the room's last byte
            copiedOffers[word] |= bit
        }
        return UnsafeRawPointer(room + start).assumingMemoryBound(to: CChar.self)
    }

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

    /// The URL string at `position` as the host gets it (`ServiceURL.read`): its own text when it is its own `href`,
    /// else the `href`, made on the first request and kept in the position's slot; nil when it is not a non-empty
    /// string or is refused. For URLs read when asked for rather than at decode (an offer's `beacons`).
    func urlText(at position: Int) -> UnsafePointer<CChar>? {
        guard position >= 0, position < tape.count, tape.isString(position), !tape.isEmptyString(position) else { return nil }
        switch tape.withText(position, ServiceURL.read) {
        case .asGiven: return text(at: position)
        case .refused: return nil
        case .rewritten(var href): return slotText(at: position) { body in href.withUTF8 { body(UnsafeRawBufferPointer($0)) } }
        }
    }

    /// The host text of the container at `position` (see `JSONTape.withText`), made on the first request and kept
    /// in its slot.
    private func madeHostText(at position: Int) -> UnsafePointer<CChar>? {
        guard position >= 0, position < tape.count else { return nil }
        return slotText(at: position) { body in tape.withText(position, body) }
    }

    /// The text kept in the slot of `position`, made from the bytes `make` passes on the first request. The slots
    /// (one per tape position) are allocated on the first request of any.
    private func slotText(at position: Int,
                          _ make: ((UnsafeRawBufferPointer) -> UnsafePointer<CChar>) -> UnsafePointer<CChar>) -> UnsafePointer<CChar> {
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
        let made = make { keep($0) }
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

extension String {
    /// A text this library handed out from a decoded answer (`AnswerTexts`, an offer's `fieldText` or `jsonText`),
    /// copied into a String without checking its UTF-8 again. The tape's builder checked every string of the answer
    /// as strictly as Swift does (overlong forms, surrogates, code points above U+10FFFF; the `json` fuzz target
    /// holds the two to the same verdicts), the bytes between strings are JSON's ASCII, and the texts are made of
    /// those bytes, escapes resolved to valid UTF-8, and Swift strings. Checking again cost about 10 instructions
    /// a byte for a mostly ASCII text with a few other characters (Swift's check goes byte by byte once it meets
    /// one): 44K of the 3-offer fetch read through the Swift surface.
    public init(answerText text: UnsafePointer<CChar>) {
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text))
        self.init(copying: UTF8Span(unchecked: bytes.span))
    }
}
