internal import CSystemShims

/// The process's fork gate (`CSystemShims/fork_gate.h`): threads running the library hold it; `fork()` waits,
/// at most 2 s (`be_fork_gate_setup`), until only the forking thread does, so a child never inherits a lock that
/// a thread of the library (or the Swift runtime under it) held. Past the bound the child's library calls refuse
/// (BE_ERR_INVALID_STATE) instead of risking a lock no thread will ever release. Set up on first use.
///
/// Every function here that reaches the header is `@inline(never)`: the header's functions and their storage are
/// `static`, so a copy is made in each object file that calls them, and the optimizer, inlining these into
/// callers of other files, made ten copies of the gate (ten states, ten pairs of fork handlers). One object file
/// calls the header now; `testReleaseLibraryIsLean` counts the copies.
public enum ForkGate {
    /// The gate's C state (set up on first use, by pthread_once).
    private static var gate: UnsafeMutablePointer<be_fork_gate> { be_fork_gate_get() }  // only ever inlined here

    /// Installs the gate's handlers (an SDK's start does it, before it makes a thread).
    @inline(never)
    static func install() { _ = gate }

    /// Counts this thread in; false, at once, in a child the gate could not make safe.
    @inline(never)
    public static func enter() -> Bool { be_fork_gate_enter(gate) != 0 }

    @inline(never)
    public static func leave() { be_fork_gate_leave(gate) }

    /// Runs `body`, which blocks or runs host code, without the gate: a fork meanwhile need not wait for it.
    public static func outside<Result>(_ body: () throws -> Result) rethrows -> Result {
        let depth = suspend()
        defer { resume(depth) }
        return try body()
    }

    /// Lets go of the gate entirely (a wait begins); returns what `resume` takes back. 0 when not inside.
    @inline(never)
    static func suspend() -> Int { be_fork_gate_suspend(gate) }

    /// Takes the gate back after `suspend` (waits while a fork is being prepared). Hold no lock here.
    @inline(never)
    static func resume(_ depth: Int) { be_fork_gate_resume(gate, depth) }

    /// Whether this process is a child that must not run the library (the gate timed out at its fork).
    public static var isUnsafeChild: Bool { unsafeChild() }

    @inline(never)
    private static func unsafeChild() -> Bool { gate.pointee.child_unsafe != 0 }

    /// What a call refused in an unsafe child says.
    public static let refusal = EngineFailure.invalidState(
        "this process was forked while the library's threads were busy past the fork bound; the library cannot be used in it")

    /// `body` inside the gate, or `refused` in an unsafe child.
    public static func inside<Result>(orElse refused: () -> Result, _ body: () -> Result) -> Result {
        guard enter() else { return refused() }
        defer { leave() }
        return body()
    }
}
