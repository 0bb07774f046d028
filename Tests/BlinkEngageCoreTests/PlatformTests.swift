@testable import BlinkEngageCore
import Foundation
import Testing
import TestSupport

/// The platform layer, in whichever implementation this build carries (`make test` the Linux one, `make
/// test-portable` the portable POSIX one): each type keeps its promise with real descriptors.
@Suite(.serialized) struct PlatformTests {
    /// A generous bound for something that must happen: never reached when it does.
    private static let surely: Int32 = 20_000

    @Test func theBuildCarriesTheImplementationItWasAskedFor() {
        #if BLINKENGAGE_PLATFORM_POSIX
        #expect(Platform.implementation == "posix")
        #else
        #expect(Platform.implementation == "linux")
        #endif
    }

    @Test func aWakeSignalIsReadableFromSignalToConsume() throws {
        let signal = try WakeSignal()
        #expect(!isReadable(signal.descriptor))
        #expect(signal.wait(until: MonotonicClock.now()) == [.deadline])
        signal.signal()
        signal.signal()
        #expect(isReadable(signal.descriptor))
        signal.consume()  // however many came
        #expect(!isReadable(signal.descriptor))
        signal.signal()
        #expect(signal.wait(until: nil) == [.signalled])
        #expect(!isReadable(signal.descriptor))
    }

    @Test func randomBytesDifferAndThreadNamesAreCut() throws {
        var first = [UInt8](repeating: 0, count: 16), second = first
        #expect(first.withUnsafeMutableBytes { Platform.randomBytes($0) })
        #expect(second.withUnsafeMutableBytes { Platform.randomBytes($0) })
        #expect(first != second)
        var tooMany = [UInt8](repeating: 0, count: 257)
        #expect(!tooMany.withUnsafeMutableBytes { Platform.randomBytes($0) })
        let name = Locked("")
        // 14 ASCII bytes and a two-byte character: 16 bytes, cut to the 14 before it.
        let thread = try NativeThread(name: "be-platform-tsé") {
            let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            name.withLock { $0 = comm.trimmingCharacters(in: .newlines) }
        }
        thread.join()
        #expect(name.withLock { $0 } == "be-platform-ts")
    }

    @Test func thePollerSaysWhatIsReadyAndWhenTimersExpire() throws {
        let poller = try ReadinessPoller(timers: 2)
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[1]) }
        #expect(poller.watch(ends[0], interest: ReadinessPoller.readable))
        #expect(ready(poller).isEmpty)
        #expect(!isReadable(poller.descriptor))

        var byte: UInt8 = 1
        #expect(write(ends[1], &byte, 1) == 1)
        #expect(isReadable(poller.descriptor, within: Self.surely))
        #expect(ready(poller).map(\.fd) == [ends[0]])
        #expect(ready(poller).first?.readiness == ReadinessPoller.readable)  // still ready: said again
        #expect(read(ends[0], &byte, 1) == 1)
        #expect(ready(poller).isEmpty)

        poller.arm(timer: 1, at: MonotonicClock.now())
        #expect(isReadable(poller.descriptor, within: Self.surely))
        #expect(ready(poller).map(\.fd) == [poller.timer(1)])
        poller.reset(timer: 1)
        #expect(ready(poller).isEmpty)
        poller.arm(timer: 0, at: MonotonicClock.now() + 3_600_000_000_000)
        poller.arm(timer: 0, at: UInt64.max)  // disarmed before it expires
        #expect(ready(poller).isEmpty)

        // A watched descriptor closed is forgotten, never reported.
        #expect(write(ends[1], &byte, 1) == 1)
        close(ends[0])
        #expect(!ready(poller).contains { $0.fd == ends[0] })
        #expect(poller.watch(ends[1], interest: 0))  // forgetting what is not watched is fine
    }

    private func ready(_ poller: ReadinessPoller) -> [(fd: Int32, readiness: Int32)] {
        var fds = [Int32](repeating: -1, count: 8), readiness = [Int32](repeating: 0, count: 8)
        let count = fds.withUnsafeMutableBufferPointer { fds in readiness.withUnsafeMutableBufferPointer { poller.ready(fds, $0) } }
        return (0..<count).map { (fds[$0], readiness[$0]) }
    }

    /// Polls `watch` until it reports a change (true) or `milliseconds` pass (false).
    private func change(_ watch: DirectoryWatch, within milliseconds: Int32) -> Bool {
        let deadline = MonotonicClock.deadline(afterMilliseconds: UInt32(milliseconds))
        while true {
            var entries = watch.descriptors().map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let timeout = MonotonicClock.pollMilliseconds(until: deadline)
            guard poll(&entries, nfds_t(entries.count), timeout) > 0 else { return false }
            if entries.filter({ $0.revents != 0 }).contains(where: { watch.serviceReadable($0.fd) }) { return true }
        }
    }

    @Test func processesOnADirectoryHearQueuedItemsAndALockLetGo() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("be-watch-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try DirectoryOwnership(directory: try StorageDirectory.at(directory)), second = try DirectoryOwnership(directory: try StorageDirectory.at(directory))
        let owner = try #require(first.watch), waiter = try #require(second.watch)
        #expect(first.tryAcquire().acquiredNow)
        #expect(!second.tryAcquire().held)
        #expect(owner.reconnect(isOwner: true))
        #expect(waiter.reconnect(isOwner: false))
        _ = change(owner, within: 0)  // a connection accepted, or nothing yet
        _ = change(waiter, within: 0)

        second.touch()  // the waiter queued items
        #expect(change(owner, within: Self.surely))
        first.release()  // the owner lets go: the waiter hears it, and the lock is free
        #expect(change(waiter, within: Self.surely))
        #expect(second.tryAcquire().acquiredNow)
        #expect(waiter.reconnect(isOwner: true))
        #expect(owner.reconnect(isOwner: false))  // now it waits on the new owner
        first.touch()
        #expect(change(waiter, within: Self.surely))
        second.release()
    }

    #if !BLINKENGAGE_PLATFORM_POSIX
    /// A watch let go of leaves its descriptor for the next (closing it would wait for the kernel): the next watch
    /// takes it, hears its own directory, and nothing of the one before.
    @Test func aWatchLetGoOfLeavesItsDescriptorCleanForTheNext() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("be-spare-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        func lockFile(in name: String) throws -> (StorageDirectory, Int32) {
            try FileManager.default.createDirectory(atPath: root + "/" + name, withIntermediateDirectories: true)
            let directory = try StorageDirectory.at(root + "/" + name)
            return (directory, try directory.openOwnFile("outbox.lock"))
        }
        let (old, oldLock) = try lockFile(in: "old"), (new, newLock) = try lockFile(in: "new")
        defer { close(oldLock); close(newLock) }
        let spare = SpareDescriptor()
        var first = DirectoryWatch(directory: old, lockFile: oldLock, spare: spare)
        let reused = try #require(first?.descriptors().first)
        first?.announce()  // a change left unread in the descriptor
        first = nil
        let watch = try #require(DirectoryWatch(directory: new, lockFile: newLock, spare: spare))
        #expect(watch.descriptors() == [reused])
        #expect(!change(watch, within: 0))  // nothing of the old watch came along
        watch.announce()
        #expect(change(watch, within: Self.surely))
        // A change in the old directory: its own new watch hears it (the kernel queues events within the call
        // that makes them), and the reused descriptor does not.
        let oldWatch = try #require(DirectoryWatch(directory: old, lockFile: oldLock, spare: spare))
        #expect(oldWatch.descriptors() != [reused])
        oldWatch.announce()
        #expect(change(oldWatch, within: Self.surely))
        #expect(!change(watch, within: 0))
    }
    #endif

    /// The library this build made (BE_LIB_DIR) imports Linux's own calls only in the Linux build.
    @Test func theLibraryImportsLinuxCallsOnlyInTheLinuxBuild() throws {
        let listing = try Command.run("/usr/bin/nm", ["-D", "--undefined-only", ProjectPaths.library.path])
        try #require(listing.status == 0, "\(listing.output)")
        let imported = Set(listing.output.split(separator: "\n").compactMap { $0.split(separator: " ").last?.split(separator: "@").first }.map(String.init))
        let linuxOnly: Set = ["epoll_create1", "epoll_ctl", "epoll_wait", "eventfd", "inotify_init1", "inotify_add_watch",
                              "timerfd_create", "timerfd_settime", "syscall"]
        #if BLINKENGAGE_PLATFORM_POSIX
        #expect(imported.isDisjoint(with: linuxOnly), "\(imported.intersection(linuxOnly).sorted())")
        #expect(imported.isSuperset(of: ["poll", "pipe", "socket"]))
        #else
        #expect(imported.isSuperset(of: linuxOnly))
        #endif
    }

    /// Nothing above Platform/ makes the calls it keeps: no other file imports CPlatform or names them.
    @Test func onlyPlatformMakesTheseCalls() throws {
        let calls = ["CPlatform", "epoll", "eventfd", "inotify", "timerfd", "getrandom", "getentropy", "pthread_setname_np",
                     "prctl", "kqueue", "arc4random", "be_wake_", "be_unix_", "be_random_bytes", "be_set_thread_name",
                     "be_directory_watch", "be_platform_"]
        var offenders: [String] = []
        let sources = ProjectPaths.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        #expect(files.contains("BlinkEngageCore/Platform/Platform.swift"))
        for file in files where !file.hasPrefix("BlinkEngageCore/Platform/") && !file.hasPrefix("CPlatform/")
            && (file.hasSuffix(".swift") || file.hasSuffix(".h")) {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//"), !code.hasPrefix("/*"), !code.hasPrefix("*") else { continue }
                let uncommented = code.components(separatedBy: "//").first ?? code
                for call in calls where uncommented.contains(call) { offenders.append("\(file):\(number + 1): \(call)") }
            }
        }
        #expect(offenders.isEmpty, "\(offenders)")
    }
}
