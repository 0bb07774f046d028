/// Which sockets libcurl wants the driven transport's readiness poller to watch for it: a policy without I/O
/// (SocketWatchTests).
///
/// libcurl asks to watch a kept connection's socket when a transfer starts on it and to forget it when the
/// transfer ends: two epoll_ctl calls (on Linux) a fetch more than needed, at close to a microsecond each on a virtual machine.
/// A socket libcurl forgets stays in the set ("parked"), so the next transfer on the connection changes what is
/// watched with one call. A parked socket that becomes ready (the server closed the idle connection) leaves the set
/// then, and its readiness never reaches libcurl, which no longer knows it. A socket closed while parked leaves the
/// set by itself (epoll forgets a closed file), and a new socket with its number is added anew (the change finds no
/// entry, and adds one).
struct SocketWatch: Equatable {
    /// The sockets libcurl watches now; a few at most (one per transfer in flight).
    private(set) var wanted: [Int32] = []

    enum Change: Equatable {
        /// Watch the socket for libcurl's interest (CURL_POLL_IN 1, OUT 2, INOUT 3).
        case watch(Int32)
        /// Leave the set as it is.
        case none
    }

    /// libcurl's socket callback asked `what` (CURL_POLL_NONE 0, IN 1, OUT 2, INOUT 3, REMOVE 4) for `socket`.
    mutating func libcurlAsks(_ socket: Int32, _ what: Int32) -> Change {
        let interest = what & 3
        if what == 4 || interest == 0 {
            wanted.removeAll { $0 == socket }
            // Forgotten: parked, still in the set; NONE (nothing to wait for) parks it too.
            return .none
        }
        if !wanted.contains(socket) { wanted.append(socket) }
        return .watch(interest)
    }

    /// Whether a socket that is ready belongs to libcurl; when not, the caller removes it from the set.
    func wants(_ socket: Int32) -> Bool { wanted.contains(socket) }
}
