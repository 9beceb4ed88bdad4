import Foundation
import NFCTagKit
import Testing
import TestSupport

extension HardwareInTheLoop {
    /// Scenarios that write: write + read back (the previous message is put back), password
    /// protection and its removal, and the permanent lock. On a real reader they run only
    /// when the environment allows it (see ``HardwareBench``).
    @Suite("Hardware in the loop: writes, passwords, lock", .serialized, .timeLimit(.minutes(2)), .blockingCalls)
    struct HardwareWriteTests {
        static let password = TagPassword(uncheckedBytes: [0x5A, 0x17, 0xC3, 0x08])
        static let pack = PACK(uncheckedBytes: [0x3C, 0x96])

        /// Connects an NDEF session to the one tag; cancels the test when it holds no NDEF.
        static func ndefTag(on device: NFCDevice, configuration: NDEFSessionConfiguration = NDEFSessionConfiguration())
            async throws -> (NDEFSession, any NFCNDEFTag, NDEFStatus)
        {
            let session = NDEFSession(device: device, configuration: configuration)
            try await session.begin()
            let tags = try await session.waitForTags(timeout: .seconds(10))
            try #require(tags.count == 1, "exactly one tag must be on the reader")
            let tag = try await session.connect(to: tags[0])
            let status = try await tag.queryNDEFStatus()
            if case .notSupported = status.availability {
                await session.invalidate()
                try Test.cancel("the tag holds no NDEF structure")
            }
            return (session, tag, status)
        }

        /// The user pages of a page-memory tag (nil for another family), to put back exactly.
        static func userPages(on device: NFCDevice) async throws -> TagMemoryDump? {
            let session = try await TagSession.connect(on: device, timeout: .seconds(10))
            guard case .type2(let pages) = session.tag else { return nil }
            return try await pages.dump()
        }

        /// Writes back the user pages `image` holds where they differ (bytes past the NDEF
        /// terminator included); lock, OTP and configuration pages are not touched.
        static func putBack(_ image: TagMemoryDump, on device: NFCDevice) async throws {
            let session = try await TagSession.connect(on: device, timeout: .seconds(10))
            let pages = try session.type2Tag()  // the same tag: still a Type 2 tag
            try await pages.restore(image)
        }

        @Test(
            "write a URL and read it back; the tag's previous message (and user pages) are put back afterwards",
            .enabled(if: HardwareBench.allowsWrite, HardwareBench.writeSkipMessage), arguments: HardwareBench.tags)
        func writeAndReadBack(tag name: String) async throws {
            let reader = try HardwareReader(tag: name)
            try await reader.withDevice { device in
                let image = try? await Self.userPages(on: device)
                let (session, tag, status) = try await Self.ndefTag(on: device)
                guard case .readWrite = status.availability else {
                    await session.invalidate()
                    try Test.cancel("the tag is \(status.availability): nothing to write")
                }
                let previous = try? await tag.readNDEF()
                let nonce = UInt64.random(in: 0...UInt64.max)
                let message = NDEFMessage(records: [
                    NDEFURIRecord(uri: "https://example.com/hil/\(String(nonce, radix: 16))").record
                ])
                print("[hil] writing \(message.records.count) record (nonce \(String(nonce, radix: 16)))")
                try await tag.writeNDEF(message)
                #expect(try await tag.readNDEF() == message)
                if let previous {
                    try await tag.writeNDEF(previous)
                    #expect(try await tag.readNDEF() == previous, "the previous message was not put back")
                }
                await session.invalidate()
                if let image { try await Self.putBack(image, on: device) }
            }
        }

        @Test(
            "protect with a password (PACK proven), reads and writes need it, then the password is removed",
            .enabled(if: HardwareBench.allowsWrite, HardwareBench.writeSkipMessage), arguments: HardwareBench.tags)
        func protectAndUnprotect(tag name: String) async throws {
            let reader = try HardwareReader(tag: name)
            try await reader.withDevice { device in
                let session = try await TagSession.connect(on: device, timeout: .seconds(10))
                guard case .type2(let ntag) = session.tag, ntag.memory.configuration?.password != nil else {
                    try Test.cancel("\(session.chip?.rawValue ?? "this chip") has no PWD_AUTH password")
                }
                let memory = ntag.memory
                let before = try await ntag.readConfiguration()
                if before.isProtectionActive {
                    try Test.cancel(
                        "the tag is already password-protected (AUTH0 = \(before.auth0 ?? 0)); its password is unknown here"
                    )
                }
                let plan = try await ntag.planProtection(
                    password: Self.password, pack: Self.pack, from: memory.firstUserPage,
                    readProtected: true)
                #expect(plan.irreversibleChanges.isEmpty)
                _ = try await ntag.protect(
                    password: Self.password, pack: Self.pack, from: memory.firstUserPage, readProtected: true)

                try await session.reselect()
                await #expect(throws: TagSessionError.self, "a read-protected page read without the password") {
                    _ = try await ntag.read(page: memory.firstUserPage)
                }
                #expect(try await ntag.authenticate(password: Self.password, expectedPACK: Self.pack) == Self.pack)
                _ = try await ntag.read(page: memory.firstUserPage)

                let after = try await ntag.removePassword(current: Self.password, expectedPACK: Self.pack)
                print("[hil] after removal: \(after)")
                try await session.reselect()
                #expect(try await ntag.readConfiguration().isProtectionActive == false)
                _ = try await ntag.read(page: memory.firstUserPage)
            }
        }

        @Test(
            "lock for good: the message verified, then the tag reads as read-only and refuses a write",
            .enabled(if: HardwareBench.allowsLock, HardwareBench.lockSkipMessage), arguments: HardwareBench.tags)
        func lock(tag name: String) async throws {
            let reader = try HardwareReader(tag: name)
            try await reader.withDevice { device in
                let (session, tag, status) = try await Self.ndefTag(on: device)
                guard case .readWrite = status.availability else {
                    await session.invalidate()
                    try Test.cancel("the tag is \(status.availability) already")
                }
                let message = NDEFMessage(records: [
                    NDEFTextRecord(text: "locked by the NFCTagKit hardware tests").record
                ])
                try await tag.writeNDEF(message)
                do {
                    try await tag.writeLock()
                } catch let error as NDEFSessionError {
                    await session.invalidate()
                    if case .unsupportedTag(let reason) = error {
                        try Test.cancel("this tag cannot be locked: \(reason)")
                    }
                    throw error
                }
                let after = try await tag.queryNDEFStatus()
                #expect(after.availability == .readOnly)
                #expect(try await tag.readNDEF() == message)
                await #expect(throws: NDEFSessionError.tagNotWritable) {
                    try await tag.writeNDEF(NDEFMessage(records: []))
                }
                await session.invalidate()
            }
        }
    }
}
