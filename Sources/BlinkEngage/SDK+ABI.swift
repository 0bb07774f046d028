public import CBlinkEngage
import BlinkEngageCore

@c @implementation
public func be_sdk_start(_ config: OpaquePointer?, _ out_sdk: UnsafeMutablePointer<OpaquePointer?>?) -> be_status {
    out_sdk?.pointee = nil
    return statusCall { () throws(EngineFailure) in
        guard let out_sdk else { throw .invalidArgument("out_sdk is NULL") }
        guard let handle = Handle.object(config, as: ConfigHandle.self) else { throw .invalidArgument("config is NULL") }
        let sdk = try SDK(configuration: handle.configuration.withLock { $0 })
        out_sdk.pointee = Handle.retained(sdk)
    }
}

@c @implementation
public func be_sdk_dispatch(_ sdk: OpaquePointer?, _ max_callbacks: Int32) -> Int32 {
    guard let sdk = Handle.object(sdk, as: SDK.self) else { return 0 }
    return Int32(clamping: sdk.dispatch(maximum: Int(max_callbacks)))
}

@c @implementation
public func be_sdk_dispatch_fd(_ sdk: OpaquePointer?) -> Int32 {
    Handle.object(sdk, as: SDK.self)?.dispatchDescriptor ?? -1
}

@c @implementation
public func be_sdk_shutdown(_ sdk: OpaquePointer?, _ timeout_ms: UInt32) {
    guard let engine = Handle.object(sdk, as: SDK.self) else { return }
    // From inside its own callback the SDK refuses (and logs); the host's reference then stays valid.
    guard engine.shutdown(timeoutMilliseconds: timeout_ms) else { return }
    Handle.release(sdk, as: SDK.self)
}
