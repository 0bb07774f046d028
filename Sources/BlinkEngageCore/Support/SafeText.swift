/// Text from outside (server messages, header values, stored strings) made safe to put in a message or a log
/// line: control characters escaped, so it cannot forge log lines or terminal sequences, and cut to a bound.
public enum SafeText {
    /// The most bytes of outside text that go into one message.
    public static let maximumBytes = 512

    /// `text` with C0 controls, DEL and C1 controls escaped (`\n`, `\r`, `\t`, `\u{1B}` ...), cut at
    /// `maximumBytes` UTF-8 bytes on a character boundary (with "…" when cut).
    public static func clean(_ text: some StringProtocol, maximumBytes: Int = maximumBytes) -> String {
        var out = ""
        var bytes = 0
        for scalar in text.unicodeScalars {
            let piece: String
            switch scalar.value {
            case 0x0A: piece = "\\n"
            case 0x0D: piece = "\\r"
            case 0x09: piece = "\\t"
            case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029:
                piece = "\\u{" + String(scalar.value, radix: 16) + "}"
            default: piece = String(scalar)
            }
            let size = piece.utf8.count
            if bytes + size > maximumBytes { return out + "…" }
            out += piece
            bytes += size
        }
        return out
    }
}
