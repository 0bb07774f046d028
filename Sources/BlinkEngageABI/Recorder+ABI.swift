#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
public import CBlinkEngage
import BlinkEngageCore

/// Hands `text` to the host as a NUL-terminated copy it frees with `be_string_free`.
private func handOver(_ text: String, to out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) throws(EngineFailure) {
    guard let copy = text.withCString({ strdup($0) }) else { throw .noMemory("cannot copy \(text.utf8.count) bytes") }
    out.pointee = copy
}

@c @implementation
public func be_sdk_recorder_json(_ sdk: OpaquePointer?, _ out_text: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> be_status {
    out_text?.pointee = nil
    return statusCall { () throws(EngineFailure) in
        guard let engine = Handle.object(sdk, as: SDK.self) else { throw .invalidArgument("sdk is NULL") }
        guard let out_text else { throw .invalidArgument("out_text is NULL") }
        try handOver(try engine.recorderLines(), to: out_text)
    }
}

@c @implementation
public func be_recorder_har(_ json_lines: UnsafePointer<CChar>?, _ out_har: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> be_status {
    out_har?.pointee = nil
    return statusCall { () throws(EngineFailure) in
        guard let out_har else { throw .invalidArgument("out_har is NULL") }
        let lines = try hostString(json_lines, "json_lines")
        try handOver(RecorderText.har(fromJSONLines: lines, creatorVersion: LibraryVersion.string), to: out_har)
    }
}

@c @implementation
public func be_string_free(_ text: UnsafeMutablePointer<CChar>?) {
    free(text)
}
