@testable import NFCTagKit
import Testing

@Suite("LibNFCError names every NFC_E* code")
struct LibNFCErrorTests {
    // The values nfc/nfc.h of libnfc 1.8.0 documents.
    static let documented: [(LibNFCError.Code, Int32, String)] = [
        (.io, -1, "NFC_EIO"), (.invalidArgument, -2, "NFC_EINVARG"),
        (.deviceNotSupported, -3, "NFC_EDEVNOTSUPP"), (.noSuchDevice, -4, "NFC_ENOTSUCHDEV"),
        (.overflow, -5, "NFC_EOVFLOW"), (.timeout, -6, "NFC_ETIMEOUT"),
        (.operationAborted, -7, "NFC_EOPABORTED"), (.notImplemented, -8, "NFC_ENOTIMPL"),
        (.targetReleased, -10, "NFC_ETGRELEASED"), (.rfTransmission, -20, "NFC_ERFTRANS"),
        (.mifareAuthenticationFailed, -30, "NFC_EMFCAUTHFAIL"), (.software, -80, "NFC_ESOFT"),
        (.chip, -90, "NFC_ECHIP"),
    ]

    @Test("each code maps to libnfc's value and back, with its C name")
    func roundTrip() {
        #expect(Self.documented.count == LibNFCError.Code.known.count)
        for (code, value, name) in Self.documented {
            #expect(code.rawValue == value)
            #expect(LibNFCError.Code(rawValue: value) == code)
            #expect(code.description == name)
        }
    }

    @Test("an unknown code keeps its value")
    func unknownCode() {
        let code = LibNFCError.Code(rawValue: -123)
        #expect(code == .unknown(-123))
        #expect(code.rawValue == -123)
    }

    @Test("only I/O, no-such-device and reader timeout mean the reader is lost")
    func readerLostCodes() {
        let lost = LibNFCError.Code.known.filter(\.meansReaderLost)
        #expect(Set(lost) == [.io, .noSuchDevice, .timeout])
    }

    @Test("the description names the operation, the text and the code")
    func description() {
        let error = LibNFCError(
            code: .rfTransmission, operation: "nfc_initiator_transceive_bytes", message: "RF Transmission Error")
        #expect(error.description == "nfc_initiator_transceive_bytes: RF Transmission Error (NFC_ERFTRANS)")
    }
}
