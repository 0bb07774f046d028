/// Severity of a log message; raw values match `be_log_level`.
public enum LogLevel: Int, Sendable, Comparable {
    case debug = 0, info = 1, warning = 2, error = 3
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

public typealias LogHandler = @Sendable (LogLevel, String) -> Void

/// Calls the host's log handler synchronously on the logging thread, and never after `close()` returns:
/// `close` waits for calls already inside the handler, so shutdown can promise silence afterwards.
final class Logger: Sendable {
    private let handler: LogHandler?
    private let minimumLevel: LogLevel
    private let gate = ConditionLock((open: true, inside: 0))
    static let maximumMessageBytes = 2048

    init(handler: LogHandler?, minimumLevel: LogLevel) {
        self.handler = handler
        self.minimumLevel = minimumLevel
    }

    func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard let handler, level >= minimumLevel else { return }
        let admitted = gate.withLock { gate -> Bool in
            guard gate.open else { return false }
            gate.inside += 1
            return true
        }
        guard admitted else { return }
        // Log lines embed outside text (server messages, URLs): no control character reaches the handler.
        handler(level, SafeText.clean(message(), maximumBytes: Self.maximumMessageBytes))
        gate.withLock { $0.inside -= 1 }
    }

    func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    func error(_ message: @autoclosure () -> String) { log(.error, message()) }

    /// Stops logging and waits until no thread is inside the handler.
    func close() {
        gate.withLock { $0.open = false }
        _ = gate.wait(until: { $0.inside == 0 }) { _ in }
    }
}
