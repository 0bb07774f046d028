internal import BlinkEngageCore

/// The one result an `async` call waits for: the engine's completion or the task's cancellation, whichever
/// comes first. The other is dropped, so a cancelled call owes nothing afterwards.
final class ResultSlot<Value: Sendable>: Sendable {
    private enum State: Sendable {
        case empty
        case waiting(CheckedContinuation<Value, any Error>)
        /// Cancelled before the continuation existed: it is resumed as soon as it does.
        case cancelledEarly
        case done
    }

    private let state = Locked(State.empty)

    /// Installs the continuation; false when the task was cancelled first (the continuation is resumed then).
    func install(_ continuation: CheckedContinuation<Value, any Error>) -> Bool {
        let cancelled = state.withLock { state -> Bool in
            guard case .empty = state else { state = .done; return true }
            state = .waiting(continuation)
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    /// Resumes the waiter with `result` unless it was resumed already.
    func resume(_ result: Result<Value, any Error>) {
        let waiting = state.withLock { state -> CheckedContinuation<Value, any Error>? in
            switch state {
            case .waiting(let continuation):
                state = .done
                return continuation
            case .empty:
                if case .failure(let error) = result, error is CancellationError { state = .cancelledEarly }
                return nil
            case .cancelledEarly, .done:
                return nil
            }
        }
        waiting?.resume(with: result)
    }
}

/// Runs `start`, which hands the engine a completion, and waits for that completion or the task's cancellation.
/// A cancelled task throws `CancellationError` at once; the request is abandoned and its late result dropped.
func awaitCompletion<Value: Sendable>(
    _ start: (@escaping @Sendable (Result<Value, any Error>) -> Void) throws(BlinkEngageError) -> Void
) async throws -> Value {
    let slot = ResultSlot<Value>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
            guard slot.install(continuation) else { return }
            do throws(BlinkEngageError) { try start { result in slot.resume(result) } } catch {
                slot.resume(.failure(error))
            }
        }
    } onCancel: {
        slot.resume(.failure(CancellationError()))
    }
}
