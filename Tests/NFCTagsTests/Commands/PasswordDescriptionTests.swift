import Testing
@testable import NFCTags

/// What a password flow prints must be copyable back into a command line: every byte is
/// two hex digits, so `0A` never turns into `A`.
@Suite("Password descriptions print every byte as two hex digits")
struct PasswordDescriptionTests {
    @Test("a password with small bytes keeps its leading zeros")
    func requirement() {
        #expect(PasswordRequirement.password([0x00, 0x0A, 0x10, 0xFF]).description == "password 00 0A 10 FF")
        #expect(PasswordRequirement.noPassword.description == "no password")
    }

    @Test("PWD_AUTH and WRITE steps pad their bytes")
    func steps() {
        let authenticate = PasswordFlowStep(
            .authenticate(password: [0x01, 0x02, 0x03, 0x04], expectedPACK: nil), purpose: "check")
        #expect(authenticate.description == "PWD_AUTH 01 02 03 04 — check")
        let write = PasswordFlowStep(.write(page: 0x85, bytes: [0x0F, 0x00, 0xA0, 0x05]), purpose: "PWD")
        #expect(write.description == "WRITE page 133: 0F 00 A0 05 — PWD")
    }
}
