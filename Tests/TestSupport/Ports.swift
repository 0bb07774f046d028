import Foundation

/// A loopback port nothing listens on.
public func unusedPort() throws -> Int {
    let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socketDescriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
            bind(socketDescriptor, raw, length) == 0 && getsockname(socketDescriptor, raw, &length) == 0
        }
    }
    guard bound else { throw SandboxFailure(message: "no free port") }
    return Int(UInt16(bigEndian: address.sin_port))
}
