/// A synchronous failure inside the engine; the C ABI turns each case into its `be_status`.
public enum EngineFailure: Error, Equatable, Sendable {
    case invalidArgument(String)
    case invalidState(String)
    case notFound(String)
    case io(String)
    case timeout(String)
    case noMemory(String)

    public var message: String {
        switch self {
        case .invalidArgument(let m), .invalidState(let m), .notFound(let m), .io(let m), .timeout(let m),
             .noMemory(let m):
            return m
        }
    }
}
