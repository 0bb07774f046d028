public import CBlinkEngage
import BlinkEngageCore

@c @implementation
public func be_sdk_fetch_image(
    _ sdk: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ callback: be_image_callback?, _ user_data: UnsafeMutableRawPointer?
) -> be_status {
    statusCall { () throws(EngineFailure) in
        guard let engine = Handle.object(sdk, as: SDK.self) else { throw .invalidArgument("sdk is NULL") }
        guard let callback else { throw .invalidArgument("callback is NULL") }
        let userData = HostPointer(raw: user_data)
        try engine.fetchImage(url: try hostString(url, "url")) { result in callBack(result, userData, callback) }
    }
}

@c @implementation
public func be_image_retain(_ image: OpaquePointer?) -> OpaquePointer? {
    Handle.retain(image, as: Image.self)
}

@c @implementation
public func be_image_release(_ image: OpaquePointer?) {
    Handle.release(image, as: Image.self)
}

@c @implementation
public func be_image_data(_ image: OpaquePointer?) -> UnsafeRawPointer? {
    Handle.object(image, as: Image.self)?.bytes.pointer
}

@c @implementation
public func be_image_size(_ image: OpaquePointer?) -> Int {
    Handle.object(image, as: Image.self)?.bytes.count ?? 0
}

@c @implementation
public func be_image_content_type(_ image: OpaquePointer?) -> UnsafePointer<CChar>? {
    Handle.object(image, as: Image.self)?.contentType.pointer
}

@c @implementation
public func be_image_is_from_cache(_ image: OpaquePointer?) -> Int32 {
    Handle.object(image, as: Image.self)?.isFromCache == true ? 1 : 0
}
