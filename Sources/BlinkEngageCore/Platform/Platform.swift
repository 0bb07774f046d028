internal import CPlatform

/// The engine's operating-system layer: every call beyond plain POSIX is made in this folder, over the C shims
/// of `CPlatform`, behind types named for what the engine needs:
///
/// | need | type | Linux | portable POSIX build | elsewhere |
/// |---|---|---|---|---|
/// | wake a sleeping thread | `WakeSignal` | eventfd | a self-pipe | kqueue `EVFILT_USER`; an event object on Windows |
/// | hear other processes on the storage directory | `DirectoryWatch` | inotify | Unix-domain sockets | kqueue `EVFILT_VNODE`; `ReadDirectoryChangesW` |
/// | many descriptors' readiness as one, with timers | `ReadinessPoller` | epoll, timerfd | poll on a relay thread | kqueue with `EVFILT_TIMER`; an I/O completion port |
/// | random bytes | `Platform.randomBytes` | getrandom | getentropy, else /dev/urandom | `arc4random_buf`; `BCryptGenRandom` |
/// | a file put in place only under a free name | `Platform.renameExclusive` | renameat2 `RENAME_NOREPLACE` | none (the caller makes the file another way) | `renameatx_np` `RENAME_EXCL`; `MoveFileEx` without `REPLACE_EXISTING` |
/// | thread names | `Platform.setThreadName` | `pthread_setname_np(thread, name)` | the same where the C library has it | Apple's `pthread_setname_np(name)`; `SetThreadDescription` |
///
/// The portable build is chosen at compile time: `-Xcc -DBLINKENGAGE_PLATFORM_POSIX -Xswiftc
/// -DBLINKENGAGE_PLATFORM_POSIX` (`make test-portable`), and on any system that is not Linux.
enum Platform {
    /// "linux" or "posix": which implementation this build carries (tests and `be_stats` readers).
    static let implementation = be_platform_is_linux() != 0 ? "linux" : "posix"

    /// Fills `buffer` from the system's generator in one call; false when it could not (the caller falls back).
    static func randomBytes(_ buffer: UnsafeMutableRawBufferPointer) -> Bool {
        guard let base = buffer.baseAddress, buffer.count <= 256 else { return false }
        return be_random_bytes(base, buffer.count) == 0
    }

    /// Renames `from` to `to` in the directory open as `directory` only when no entry is named `to`: false when
    /// one is, or when this system or file system cannot rename without replacing (`errno` says which).
    static func renameExclusive(in directory: Int32, from: String, to: String) -> Bool {
        be_rename_exclusive(directory, from, to) == 0
    }

    /// Names the calling thread: at most 15 bytes of `name` (the kernel's limit), cut at a character boundary.
    static func setThreadName(_ name: String) {
        var bytes = Array(name.utf8.prefix(15))
        while !bytes.isEmpty, String(validating: bytes, as: UTF8.self) == nil { bytes.removeLast() }
        bytes.append(0)
        _ = bytes.withUnsafeBufferPointer { be_set_thread_name(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self)) }
    }
}
