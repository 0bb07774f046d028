#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What the SDK just did, and why: a bounded record of its requests (method, URL with secrets redacted, status,
/// bytes, timings) and its decisions (an answer from a prefetch or the image cache, an identifier withheld, a
/// report dropped or retried, an offer field refused), newest last. On by default in development mode
/// (`be_config_set_recorder`). With a storage directory it also appends each entry to `recorder.jsonl` there,
/// which `blinkengage inspect` follows; the file is bounded (one older generation, `recorder.jsonl.1`).
///
/// Nothing secret is ever recorded: no header, no body, and the values of query parameters that carry the API
/// key, tokens or identifiers are replaced (`RecorderText.redacted`).
public final class FlightRecorder: Sendable {
    /// The file's bound: past it, the file becomes `recorder.jsonl.1` and a new one starts.
    static let fileBytes = 512 * 1024

    private struct Ring {
        var lines: [String] = []
        var next = 0
        var fileBytes = 0
        /// `recorder.jsonl` open for appending (-1: not yet, or it could not be opened).
        var file: Int32 = -1
    }

    let capacity: Int
    private let ring: Locked<Ring>
    private let directory: StorageDirectory?

    /// - Parameters:
    ///   - capacity: entries kept in memory (at least 1).
    ///   - directory: the storage directory, for `recorder.jsonl`; nil keeps the record in memory only.
    init(capacity: Int, directory: StorageDirectory?) {
        self.capacity = max(1, capacity)
        self.directory = directory
        ring = Locked(Ring())
    }

    deinit {
        ring.withLock { ring in if ring.file >= 0 { close(ring.file) } }
    }

    /// A request that ended: `outcome` as the transport gave it, `queuedNanoseconds` from `send` to the end.
    func request(_ request: HTTPRequest, outcome: Result<HTTPResponse, TransportError>, elapsedNanoseconds: UInt64) {
        append(RecorderText.request(request, outcome: outcome, elapsedNanoseconds: elapsedNanoseconds,
                                    atMilliseconds: WallClock.milliseconds()))
    }

    /// A decision: `what` is a short snake_case name, `detail` says why (never a secret: callers pass none).
    func decision(_ what: String, _ detail: String) {
        append(RecorderText.decision(what, detail, atMilliseconds: WallClock.milliseconds()))
    }

    /// The entries in memory, oldest first, one JSON object per line.
    var jsonLines: String {
        ring.withLock { ring in
            let ordered = ring.lines.count < capacity ? ring.lines : Array(ring.lines[ring.next...] + ring.lines[..<ring.next])
            return ordered.map { $0 + "\n" }.joined()
        }
    }

    private func append(_ line: String) {
        ring.withLock { ring in
            if ring.lines.count < capacity {
                ring.lines.append(line)
            } else {
                ring.lines[ring.next] = line
                ring.next = (ring.next + 1) % capacity
            }
            guard let directory else { return }
            let name = RecorderText.fileName
            if ring.file >= 0, ring.fileBytes + line.utf8.count + 1 > Self.fileBytes {
                directory.rename(name, to: name + ".1")
                close(ring.file)
                ring.file = -1
            }
            if ring.file < 0 {
                // Opened once per generation, continuing what an earlier run of the app left there.
                ring.file = (try? directory.openOwnFile(name, O_WRONLY | O_APPEND)) ?? -1
                var status = stat()
                ring.fileBytes = ring.file >= 0 && fstat(ring.file, &status) == 0 ? Int(status.st_size) : 0
            }
            guard ring.file >= 0 else { return }
            if (try? FileIO.writeAll(ring.file, Array((line + "\n").utf8))) != nil { ring.fileBytes += line.utf8.count + 1 }
        }
    }
}
