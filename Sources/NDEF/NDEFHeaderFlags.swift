/// The flag bits of an NDEF record header byte (NDEF 1.0 §3.2).
enum NDEFHeaderFlags {
    static let messageBegin: UInt8 = 0x80
    static let messageEnd: UInt8 = 0x40
    static let chunk: UInt8 = 0x20
    static let shortRecord: UInt8 = 0x10
    static let identifierLength: UInt8 = 0x08
    static let typeNameFormatMask: UInt8 = 0x07
}
