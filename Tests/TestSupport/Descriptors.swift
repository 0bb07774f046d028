import Foundation

/// Whether `descriptor` is readable within `milliseconds` (0: now).
public func isReadable(_ descriptor: Int32, within milliseconds: Int32 = 0) -> Bool {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, milliseconds) == 1
}
