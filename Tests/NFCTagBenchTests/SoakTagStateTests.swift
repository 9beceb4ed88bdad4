import NDEF
import NFCChips
import NFCEmulator
import NFCTags
import Testing
@testable import nfctag_bench

/// The soak run's judge of a tag's final state, from memory alone.
@Suite("Soak final-state classification")
struct SoakTagStateTests {
    let old = BenchMessages.provisioning(serial: 1)
    let new = BenchMessages.provisioning(serial: 2)

    @Test("old, new and empty messages are told apart; a torn length is corrupt")
    func states() throws {
        let holdsOld = try SoakRun.prepare(kind: .holdsMessage, serial: 1, message: old)
        #expect(SoakTagState.classify(holdsOld, old: old, new: new) == .oldMessage)
        let holdsNew = try SoakRun.prepare(kind: .holdsMessage, serial: 1, message: new)
        #expect(SoakTagState.classify(holdsNew, old: old, new: new) == .newMessage)
        let fresh = try SoakRun.prepare(kind: .fresh, serial: 1, message: nil)
        #expect(SoakTagState.classify(fresh, old: nil, new: new) == .empty)

        var torn = holdsOld
        var lengthPage = torn.page(4)
        lengthPage[1] = 0x40  // the length says more than the message holds
        torn.setPage(4, to: lengthPage)
        #expect(SoakTagState.classify(torn, old: old, new: new) == .corrupt)
    }

    @Test("a protected tag whose AUTHLIM is used up is locked out, with its old message")
    func lockedOut() throws {
        var tag = try SoakRun.prepare(kind: .protected(authLimit: 1), serial: 1, message: old)
        #expect(SoakTagState.classify(tag, old: old, new: new) == .oldMessage)
        _ = tag.receive([0x1B] + SoakRun.wrongPassword.bytes)
        #expect(SoakTagState.lockedOut(tag))
        #expect(SoakTagState.classify(tag, old: old, new: new) == .lockedOut)
    }
}
