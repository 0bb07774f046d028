public import CBlinkEngage
import BlinkEngageCore

private let versionText = StableCString(LibraryVersion.string)

@c @implementation
public func be_version() -> UnsafePointer<CChar>! {
    versionText.pointer
}

@c @implementation
public func be_status_string(_ status: be_status) -> UnsafePointer<CChar>! {
    let text: StaticCString
    switch status {
    case BE_OK: text = StaticCString("ok")
    case BE_ERR_INVALID_ARGUMENT: text = StaticCString("invalid argument")
    case BE_ERR_INVALID_STATE: text = StaticCString("invalid state")
    case BE_ERR_NOT_FOUND: text = StaticCString("not found")
    case BE_ERR_IO: text = StaticCString("input/output error")
    case BE_ERR_TIMEOUT: text = StaticCString("timed out")
    case BE_ERR_NO_MEMORY: text = StaticCString("out of memory")
    default: text = StaticCString("unknown status")
    }
    return text.pointer
}

@c @implementation
public func be_last_error_message() -> UnsafePointer<CChar>! {
    LastError.message
}
