internal import CBlinkEngage
import BlinkEngageCore

/// A host pointer carried into a closure that may run on another thread; the host promised it stays valid.
// Safe: the library never dereferences it; it only hands it back to the host, whose pointer it is.
struct HostPointer: @unchecked Sendable {
    let raw: UnsafeMutableRawPointer?
}

/// Reads a host string: NULL and invalid UTF-8 are refused.
func hostString(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(EngineFailure) -> String {
    guard let pointer else { throw .invalidArgument("\(name) is NULL") }
    guard let text = String(validatingCString: pointer) else { throw .invalidArgument("\(name) is not valid UTF-8") }
    return text
}

/// `body`'s value, or nil with its failure recorded as the thread's message: `valueCall` inside the fork gate, and
/// getters' host arguments (`be_offer_field`'s key, a style's path) outside it, since getters only read objects
/// that no longer change, like the getters without arguments, and a getter per field of every offer must not pay a
/// gate's entry and exit (about 200 instructions).
func recordingFailure<Value>(_ read: () throws(EngineFailure) -> Value) -> Value? {
    do {
        return try read()
    } catch {
        LastError.set(error.message)
        return nil
    }
}

/// Like `hostString`, but NULL reads as nil.
func optionalHostString(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(EngineFailure) -> String? {
    guard pointer != nil else { return nil }
    return try hostString(pointer, name)
}

/// Runs an engine call and turns its failure into a `be_status`, recording the thread's error message.
/// The refusal of a call in a child the fork gate could not make safe, out of line: this path is all but never
/// taken.
@inline(never)
func refusedInUnsafeChild() -> be_status {
    LastError.set(ForkGate.refusal.message)
    return BE_ERR_INVALID_STATE
}

func statusCall(_ body: () throws(EngineFailure) -> Void) -> be_status {
    guard ForkGate.enter() else { return refusedInUnsafeChild() }
    defer { ForkGate.leave() }
    do {
        try body()
        return BE_OK
    } catch {
        LastError.set(error.message)
        return error.status
    }
}

/// Runs an engine call that returns a value; on failure records the message and returns nil.
func valueCall<Value>(_ body: () throws(EngineFailure) -> Value?) -> Value? {
    guard ForkGate.enter() else {
        _ = refusedInUnsafeChild()
        return nil
    }
    defer { ForkGate.leave() }
    return recordingFailure(body) ?? nil
}

extension EngineFailure {
    var status: be_status {
        switch self {
        case .invalidArgument: return BE_ERR_INVALID_ARGUMENT
        case .invalidState: return BE_ERR_INVALID_STATE
        case .notFound: return BE_ERR_NOT_FOUND
        case .io: return BE_ERR_IO
        case .timeout: return BE_ERR_TIMEOUT
        case .noMemory: return BE_ERR_NO_MEMORY
        }
    }
}

/// Handles: an engine object travels to C as its address. `retained` hands the host a reference it must end;
/// `borrowed` lends one that lives as long as its owner.
enum Handle {
    static func retained(_ object: AnyObject) -> OpaquePointer {
        OpaquePointer(Unmanaged.passRetained(object).toOpaque())
    }

    static func borrowed(_ object: AnyObject) -> OpaquePointer {
        OpaquePointer(Unmanaged.passUnretained(object).toOpaque())
    }

    static func object<T: AnyObject>(_ pointer: OpaquePointer?, as type: T.Type) -> T? {
        guard let pointer else { return nil }
        return Unmanaged<T>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }

    /// `body` with the object behind `pointer`, borrowed without a retain and release around it: for getters
    /// called in loops over every field of every offer. The host's handle keeps the object alive for the call.
    static func with<T: AnyObject, Result>(_ pointer: OpaquePointer?, as type: T.Type, _ body: (T) -> Result?) -> Result? {
        guard let pointer else { return nil }
        return Unmanaged<T>.fromOpaque(UnsafeRawPointer(pointer))._withUnsafeGuaranteedRef(body)
    }

    static func retain<T: AnyObject>(_ pointer: OpaquePointer?, as type: T.Type) -> OpaquePointer? {
        guard let pointer else { return nil }
        _ = Unmanaged<T>.fromOpaque(UnsafeRawPointer(pointer)).retain()
        return pointer
    }

    /// Gives up the host's reference, inside the fork gate: the last release runs deinitialisers, which may take
    /// the Swift runtime's locks (a generic type's metadata on its first use), and a fork meanwhile would leave a
    /// child to hang on one. In a child the gate could not make safe, nothing is released.
    static func release<T: AnyObject>(_ pointer: OpaquePointer?, as type: T.Type) {
        guard let pointer else { return }
        ForkGate.inside(orElse: {}) { Unmanaged<T>.fromOpaque(UnsafeRawPointer(pointer)).release() }
    }
}

/// Calls `body` with a `be_error` that lives for the call: domain and message point at storage valid until
/// `body` returns, as the callback contract says.
func withCError<Result>(_ error: ServiceError?, _ body: (UnsafePointer<be_error>?) -> Result) -> Result {
    guard let error else { return body(nil) }
    let domain: StaticCString
    switch error.domain {
    case .moments: domain = StaticCString(BE_MOMENTS_ERROR_DOMAIN_LITERAL)
    case .offerFeed: domain = StaticCString(BE_OFFER_FEED_ERROR_DOMAIN_LITERAL)
    case .zoneAd: domain = StaticCString(BE_ZONE_AD_ERROR_DOMAIN_LITERAL)
    case .image: domain = StaticCString(BE_IMAGE_ERROR_DOMAIN_LITERAL)
    case .cancelled: domain = StaticCString(BE_CANCELLED_ERROR_DOMAIN_LITERAL)
    }
    return error.message.withCString { message in
        var cError = be_error(domain: domain.pointer, code: Int32(clamping: error.code), message: message, http_status: Int32(clamping: error.httpStatus))
        return withUnsafePointer(to: &cError) { body($0) }
    }
}

/// Calls a host callback with an asynchronous result: the object borrowed for the call, or the error.
func callBack<Object: AnyObject>(
    _ result: Result<Object, ServiceError>, _ userData: HostPointer,
    _ callback: (OpaquePointer?, UnsafePointer<be_error>?, UnsafeMutableRawPointer?) -> Void
) {
    // The host's code runs without the fork gate: a fork from a callback, or a long callback, waits for nothing.
    switch result {
    case .success(let object):
        withCError(nil) { error in ForkGate.outside { callback(Handle.borrowed(object), error, userData.raw) } }
    case .failure(let error):
        withCError(error) { error in ForkGate.outside { callback(nil, error, userData.raw) } }
    }
}

// The domain strings of the header's BE_*_ERROR_DOMAIN macros (string macros do not import into Swift).
let BE_MOMENTS_ERROR_DOMAIN_LITERAL: StaticString = "BlinkEngageMoments"
let BE_OFFER_FEED_ERROR_DOMAIN_LITERAL: StaticString = "BlinkEngageOfferFeed"
let BE_ZONE_AD_ERROR_DOMAIN_LITERAL: StaticString = "BlinkEngageZoneAd"
let BE_IMAGE_ERROR_DOMAIN_LITERAL: StaticString = "BlinkEngageImage"
let BE_CANCELLED_ERROR_DOMAIN_LITERAL: StaticString = "BlinkEngageCancelled"
