import NDEF
import NFCChips
import NFCEmulator
@testable import NFCTags
import Testing

/// Found by the `type2-tag` fuzz target: with PROT set and AUTH0 after the message, the
/// message read fine but the status query read the whole data area, met the protected
/// pages and failed with authenticationRequired.
@Suite("Type 2 read protection behind the message (fuzz regression)")
struct Type2ReadProtectionFuzzRegressionTests {
    @Test("PROT with AUTH0 after the message: status is read-only with the message's length, and the message reads")
    func protectionAfterMessage() async throws {
        let chip = Chip.ntag216
        let (tag, message) = try await Type2Fixtures.readProtectedTag(chip, from: 0x10)

        let driver = try Type2Fixtures.driver(chip, EmulatedTagTransport(tag: tag))
        let status = try await driver.queryStatus()
        #expect(status.availability == .readOnly)
        #expect(status.length == 20)
        #expect(try await driver.readMessage() == message)
    }
}
