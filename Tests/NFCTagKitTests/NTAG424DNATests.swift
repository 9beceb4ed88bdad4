import NDEF
import NFCChips
import NFCEmulator
@testable import NFCTagKit
import NFCTags
import NTAG424Crypto
import Testing
import TestSupport

/// The NTAG 424 DNA handle through libnfc and the emulated PN532 to the emulated NTAG 424
/// DNA: EV2 authentication, keys, files in each mode, settings, signature, random ID, and
/// SUN set up, read as a phone reads it and verified by ``SUNVerifier``.
@Suite("NTAG 424 DNA through libnfc and the emulated PN532", .tags(.reader), .serialized, .timeLimit(.minutes(3)))
struct NTAG424DNATests {
    static let uid: [UInt8] = [0x04, 0xDE, 0x5F, 0x1E, 0xAC, 0xC0, 0x40]
    static func key(_ byte: UInt8) throws -> AES128Key { try AES128Key([UInt8](repeating: byte, count: 16)) }

    static func model(_ fixture: EmulatorFixture) -> NTAG424DNATag? {
        fixture.emulator.withField { field in field.handles.first.flatMap { field.tag($0) as? NTAG424DNATag } }
    }

    /// The error `body` throws, `nil` when it succeeds.
    static func commandError(_ body: () async throws(TagCommandError) -> Void) async -> TagCommandError? {
        do {
            try await body()
            return nil
        } catch {
            return error
        }
    }

    /// What a phone does: select the application and the NDEF file, read NLEN, then the
    /// message, with plain ISO APDUs; the URL of its URI record.
    static func phoneRead(_ session: TagSession) async throws -> String {
        let tag = try session.isoDEPTag()
        #expect(
            try await tag.sendCommand(
                APDU(bytes: [0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00])
            ).isSuccess)
        #expect(try await tag.sendCommand(APDU(bytes: [0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x04])).isSuccess)
        let nlen = try await tag.sendCommand(APDU(bytes: [0x00, 0xB0, 0x00, 0x00, 0x02]))
        #expect(nlen.isSuccess && nlen.data.count == 2)
        let length = Int(nlen.data[0]) << 8 | Int(nlen.data[1])
        let body = try await tag.sendCommand(
            APDU(cla: 0x00, ins: 0xB0, p1: 0x00, p2: 0x02, expectedResponseLength: length))
        #expect(body.isSuccess)
        let message = try NDEFMessage(bytes: body.data)
        return try NDEFURIRecord(record: message.records[0]).uri
    }

    @Test(
        "identification: an NTAG 424 DNA is told from other Type 4 tags by its native GetVersion, taken through all three parts; a Type 4 tag of another maker is not asked"
    )
    func identification() async throws {
        try await withTagSession([NTAG424DNATag(uid: Self.uid)]) { session, _ in
            #expect(session.chip == .ntag424dna)
            let answer = try #require(session.identification.isoDEPVersionAnswer)
            #expect(answer == NTAG424DNATable.hardwareVersion + [0x91, 0xAF])
            // The tag was left with no GetVersion half done: the next native command is answered.
            let ntag = try session.isoDEPTag().ntag424()
            try await ntag.selectApplication()
            #expect(try await ntag.version().uid == Self.uid)
        }
        let other = try Type4Tag(uid: [0x02, 0x8F, 0x10, 0x22, 0x33, 0x44, 0x55])
        try await withTagSession([other]) { session, _ in
            #expect(session.chip == .type4)
            #expect(session.identification.isoDEPVersionAnswer == nil)
        }
    }

    @Test(
        "GetVersion, a wrong key refused (91AE → wrongKey), the right one opens a session: GetCardUID, GetKeyVersion, settings in MAC mode"
    )
    func authenticationAndKeys() async throws {
        try await withTagSession([NTAG424DNATag(uid: Self.uid)]) { session, _ in
            let ntag = try session.isoDEPTag().ntag424()
            try await ntag.selectApplication()
            let version = try await ntag.version()
            #expect(version.hardware == NTAG424DNATable.hardwareVersion && version.uid == Self.uid)
            let wrong = try Self.key(0x11)
            let refused = await sessionError { () throws(TagSessionError) in
                try await ntag.authenticate(keyNumber: 0, key: wrong)
            }
            guard case .command(_, .ntag424(.wrongKey(let number)))? = refused else {
                Issue.record("a wrong key gave \(String(describing: refused))")
                return
            }
            #expect(number == 0)
            try await ntag.authenticate(keyNumber: 0, key: .zero)
            #expect(try await ntag.cardUID() == Self.uid)
            #expect(try await ntag.keyVersion(1) == 0)
            let settings = try await ntag.fileSettings(2)
            #expect(settings.read == .free && settings.change == .key(0) && settings.size == 256 && settings.sdm == nil)
            let proprietary = try await ntag.fileSettings(3)
            #expect(
                proprietary.communicationMode == .full && proprietary.read == .key(2) && proprietary.write == .key(3))
        }
    }

    @Test(
        "ChangeKey: key 0 with its new value; key 3 needs its old value (a wrong one gives an integrity error); files in full mode with the new keys"
    )
    func changeKeysAndFullModeFiles() async throws {
        try await withTagSession([NTAG424DNATag(uid: Self.uid)]) { session, fixture in
            let ntag = try session.isoDEPTag().ntag424()
            let master = try Self.key(0xA0)
            let writeKey = try Self.key(0x33)
            try await ntag.selectApplication()
            try await ntag.authenticate(keyNumber: 0, key: .zero)
            let wrongOld = try Self.key(0x99)
            let refused = await Self.commandError { () throws(TagCommandError) in
                try await ntag.commands.changeKey(3, to: writeKey, version: 7, oldKey: wrongOld)
            }
            guard case .ntag424(.integrityError)? = refused else {
                Issue.record("a wrong old key gave \(String(describing: refused))")
                return
            }
            #expect(Self.model(fixture)?.keys[3] == .zero)
            try await ntag.authenticate(keyNumber: 0, key: .zero)
            try await ntag.changeKey(3, to: writeKey, version: 7, oldKey: .zero)
            try await ntag.changeKey(0, to: master, version: 1)
            #expect(await ntag.commands.session == nil)
            #expect(Self.model(fixture)?.keys[0] == master && Self.model(fixture)?.keyVersions[3] == 7)
            try await ntag.authenticate(keyNumber: 0, key: master)
            #expect(try await ntag.keyVersion(3) == 7)
            // File 3: CommMode full, write key 3, read key 2.
            let secret = (0..<100).map { UInt8($0 ^ 0x5A) }
            try await ntag.authenticate(keyNumber: 3, key: writeKey)
            try await ntag.writeData(file: 3, offset: 10, data: secret, mode: .full)
            #expect(Self.model(fixture).map { Array($0.files[2].content[10..<110]) } == secret)
            try await ntag.authenticate(keyNumber: 2, key: .zero)
            #expect(try await ntag.readData(file: 3, offset: 10, length: 100, mode: .full) == secret)
            // Length 0: the rest of the file, its end found from the padding.
            #expect(
                try await ntag.readData(file: 3, offset: 10, length: 0, mode: .full) == secret
                    + [UInt8](repeating: 0, count: 18))
            // Without the key: permission denied.
            try await ntag.selectApplication()
            let denied = await sessionError { () throws(TagSessionError) in
                _ = try await ntag.readData(file: 3, length: 16, mode: .plain)
            }
            guard case .command(_, .ntag424(.permissionDenied))? = denied else {
                Issue.record("file 3 without its key gave \(String(describing: denied))")
                return
            }
        }
    }

    @Test("Read_Sig: 56 bytes on secp224r1, valid with the emulator's key, not with NXP's")
    func originality() async throws {
        try await withTagSession([NTAG424DNATag(uid: Self.uid)]) { session, _ in
            let ntag = try session.isoDEPTag().ntag424()
            try await ntag.selectApplication()
            let emulated = try await ntag.verifyOriginality(publicKey: EmulatorSigningKey.ntag424PublicKey)
            #expect(emulated.signature.count == 56 && emulated.verification.isValid)
            #expect(try await ntag.verifyOriginality().verification == .invalid)
            // Inside a session the signature comes encrypted, and still verifies.
            try await ntag.authenticate(keyNumber: 0, key: .zero)
            #expect(
                try await ntag.verifyOriginality(publicKey: EmulatorSigningKey.ntag424PublicKey).verification.isValid)
        }
    }

    @Test(
        "SUN, encrypted: set up with a meta-read key and a MAC key diversified from a master key; two phone reads give two URLs that verify with counters n and n+1; a replay and an altered character are rejected"
    )
    func sunEncrypted() async throws {
        let meta = try Self.key(0x42)
        let master = try Self.key(0x5C)
        let macKey = try KeyDiversification.sunMACKey(masterKey: master, uid: Self.uid)
        try await withTagSession([NTAG424DNATag(uid: Self.uid)]) { session, fixture in
            let ntag = try session.isoDEPTag().ntag424()
            let template = try NTAG424SUNTemplate("https://example.com/t?picc_data={picc}&cmac={cmac}")
            try await ntag.setUpSUN(template, keys: NTAG424SUNKeys(metaReadKey: meta, fileReadKey: macKey))
            #expect(Self.model(fixture)?.keys[2] == meta && Self.model(fixture)?.keys[1] == macKey)
            let first = try await Self.phoneRead(session)
            let second = try await Self.phoneRead(session)
            #expect(first != second)
            let verifier = SUNVerifier(metaReadKey: meta, macKey: .diversified(masterKey: master))
            let one = try verifier.verify(url: first)
            let two = try verifier.verify(url: second, lastCounter: one.counter)
            #expect(one.isValid && two.isValid)
            #expect(one.uid == Self.uid && two.counter == one.counter.map { $0 + 1 })
            #expect(try !verifier.verify(url: second, lastCounter: two.counter).isValid)
            var altered = Array(second)
            let index = altered.index(altered.endIndex, offsetBy: -3)
            altered[index] = altered[index] == "0" ? "1" : "0"
            #expect(try !verifier.verify(url: String(altered)).isValid)
            // GetFileCounters (key 0) agrees with the last URL.
            try await ntag.selectApplication()
            try await ntag.authenticate(keyNumber: 0, key: .zero)
            #expect(try await ntag.readCounter(file: 2) == two.counter)
        }
    }

    @Test(
        "SUN, plain: {uid}, {counter} and {cmac} mirrored in clear; the counter counts reads, and the SDMMAC verifies")
    func sunPlain() async throws {
        try await withTagSession([NTAG424DNATag(uid: Self.uid)]) { session, _ in
            let ntag = try session.isoDEPTag().ntag424()
            let template = try NTAG424SUNTemplate("https://example.com/p?uid={uid}&ctr={counter}&cmac={cmac}")
            try await ntag.setUpSUN(template, keys: NTAG424SUNKeys())
            let url = try await Self.phoneRead(session)
            #expect(url.contains("uid=04DE5F1EACC040&ctr=000001&cmac="))
            let verdict = try SUNVerifier().verify(url: url)
            #expect(verdict.isValid && verdict.counter == 1 && verdict.uid == Self.uid)
            #expect(try SUNVerifier().verify(url: try await Self.phoneRead(session)).counter == 2)
        }
    }

    @Test(
        "a SUN setup runs again on a tag set up before with the same keys (the slots that hold them are left alone), and with a new MAC key given its current one"
    )
    func sunSetupAgain() async throws {
        let meta = try Self.key(0x42)
        let mac = try Self.key(0x17)
        let newMAC = try Self.key(0x18)
        try await withTagSession([NTAG424DNATag(uid: Self.uid)]) { session, fixture in
            let ntag = try session.isoDEPTag().ntag424()
            let template = try NTAG424SUNTemplate("https://example.com/t?picc_data={picc}&cmac={cmac}")
            try await ntag.setUpSUN(template, keys: NTAG424SUNKeys(metaReadKey: meta, fileReadKey: mac))
            try await ntag.setUpSUN(template, keys: NTAG424SUNKeys(metaReadKey: meta, fileReadKey: mac))
            #expect(Self.model(fixture)?.keyVersions[1] == 1)
            try await ntag.setUpSUN(
                template,
                keys: NTAG424SUNKeys(
                    metaReadKey: meta, fileReadKey: newMAC, currentMetaReadKey: meta,
                    currentFileReadKey: mac))
            #expect(Self.model(fixture)?.keys[1] == newMAC && Self.model(fixture)?.keyVersions[1] == 2)
            let url = try await Self.phoneRead(session)
            #expect(try SUNVerifier(metaReadKey: meta, macKey: .key(newMAC)).verify(url: url).isValid)
        }
    }

    /// The offset of `marker`'s end in `file`.
    static func offset(after marker: String, in file: [UInt8]) throws -> Int {
        let needle = Array(marker.utf8)
        let start = try #require(
            (0...(file.count - needle.count)).first { Array(file[$0..<($0 + needle.count)]) == needle }, "\(marker)")
        return start + needle.count
    }

    @Test(
        "SDM with encrypted file data and the MAC input from its start (AN12196's layout), set up by hand after an EV2NonFirst; a MAC-mode file written and read back"
    )
    func encryptedFileDataAndNonFirst() async throws {
        let meta = try Self.key(0x42)
        let mac = try Self.key(0x24)
        try await withTagSession([NTAG424DNATag(uid: Self.uid)]) { session, fixture in
            let ntag = try session.isoDEPTag().ntag424()
            try await ntag.selectApplication()
            try await ntag.authenticate(keyNumber: 0, key: .zero)
            try await ntag.changeKey(2, to: meta, version: 1, oldKey: .zero)
            try await ntag.changeKey(1, to: mac, version: 1, oldKey: .zero)
            // NonFirst keeps TI and the command counter: the session goes on.
            try await ntag.authenticate(keyNumber: 0, key: .zero, nonFirst: true)
            let secret = "secret-data-0001"
            let url =
                "https://example.com/e?picc_data=" + String(repeating: "0", count: 32) + "&enc=" + secret
                + String(repeating: "0", count: 16) + "&cmac=" + String(repeating: "0", count: 16)
            let message = try NDEFMessage(records: [NDEFURIRecord(uri: url).record]).encoded()
            let file = [UInt8(message.count >> 8), UInt8(message.count & 0xFF)] + message
            try await ntag.writeData(file: 2, data: file, mode: .plain)
            var sdm = NTAG424SDMSettings(metaRead: .key(2), fileRead: .key(1))
            sdm.mirrorsUID = true
            sdm.mirrorsReadCounter = true
            sdm.piccDataOffset = try Self.offset(after: "picc_data=", in: file)
            let enc = try Self.offset(after: "&enc=", in: file)
            sdm.macInputOffset = enc
            sdm.encryptedDataOffset = enc
            sdm.encryptedDataLength = 32
            sdm.macOffset = try Self.offset(after: "&cmac=", in: file)
            let settings = NTAG424FileSettings(
                communicationMode: .plain, read: .free, write: .key(0), readWrite: .key(0), change: .key(0), sdm: sdm)
            try await ntag.changeFileSettings(2, to: settings)
            var readBack = try await ntag.fileSettings(2)
            readBack.size = 0
            #expect(readBack == settings)
            // File 3 in CommMode.MAC: written with key 3 and read with key 2, each frame MACed.
            var proprietary = try await ntag.fileSettings(3)
            proprietary.communicationMode = .mac
            try await ntag.changeFileSettings(3, to: proprietary)
            try await ntag.authenticate(keyNumber: 3, key: .zero)
            let data: [UInt8] = Array(0..<40)
            try await ntag.writeData(file: 3, data: data, mode: .mac)
            try await ntag.authenticate(keyNumber: 2, key: meta)
            #expect(try await ntag.readData(file: 3, length: 40, mode: .mac) == data)
            #expect(Self.model(fixture)?.files[2].settings.communicationMode == 1)

            let tapped = try await Self.phoneRead(session)
            #expect(!tapped.contains(secret), "the file data should be encrypted: \(tapped)")
            let verifier = SUNVerifier(
                metaReadKey: meta, macKey: .key(mac), parameters: .init(encryptedFileData: "enc"))
            let verdict = try verifier.verify(url: tapped)
            #expect(verdict.isValid, "\(verdict)")
            #expect(verdict.fileData == Array(secret.utf8) && verdict.counter == 1)
        }
    }

    @Test(
        "another session's turn in between: the tag is selected again, the handle forgets its authentication and says so; authenticating again works"
    )
    func anotherSessionInBetween() async throws {
        try await withTagSession([NTAG424DNATag(uid: Self.uid)]) { session, _ in
            let ntag = try session.isoDEPTag().ntag424()
            try await ntag.selectApplication()
            try await ntag.authenticate(keyNumber: 0, key: .zero)
            let other = try await TagSession.connect(on: session.device, timeout: .seconds(5))
            let otherTag = try other.isoDEPTag().ntag424()
            try await otherTag.selectApplication()
            _ = try await otherTag.version()
            let lost = await sessionError { () throws(TagSessionError) in _ = try await ntag.cardUID() }
            guard case .command(_, .ntag424(.notAuthenticated))? = lost else {
                Issue.record("after another session's turn: \(String(describing: lost))")
                return
            }
            try await ntag.selectApplication()
            try await ntag.authenticate(keyNumber: 0, key: .zero)
            #expect(try await ntag.cardUID() == Self.uid)
        }
    }

    @Test("SDMReadCtrLimit: reads stop when the counter reaches the limit")
    func readCounterLimit() async throws {
        try await withTagSession([NTAG424DNATag(uid: Self.uid)]) { session, _ in
            let ntag = try session.isoDEPTag().ntag424()
            let template = try NTAG424SUNTemplate("https://example.com/p?uid={uid}&ctr={counter}&cmac={cmac}")
            try await ntag.setUpSUN(template, keys: NTAG424SUNKeys())
            var settings = try await ntag.fileSettings(2)
            settings.sdm?.readCounterLimit = 2
            try await ntag.changeFileSettings(2, to: settings)
            #expect(try await ntag.fileSettings(2).sdm?.readCounterLimit == 2)
            _ = try await Self.phoneRead(session)
            _ = try await Self.phoneRead(session)
            let tag = try session.isoDEPTag()
            #expect(
                try await tag.sendCommand(
                    APDU(bytes: [0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00])
                ).isSuccess)
            #expect(try await tag.sendCommand(APDU(bytes: [0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x04])).isSuccess)
            #expect(try await tag.sendCommand(APDU(bytes: [0x00, 0xB0, 0x00, 0x00, 0x02])).statusWord == 0x6982)
        }
    }

    @Test("random ID: after SetConfiguration the next activation shows 08 xx xx xx; GetCardUID gives the real UID")
    func randomID() async throws {
        let fixture = try EmulatorFixture(tags: [NTAG424DNATag(uid: Self.uid)])
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 60) {
            let device = NFCDevice()
            _ = try await device.connect(
                to: fixture.reader, configuration: fixture.configuration(reconnect: false, liveness: nil))
            let first = try await TagSession.connect(on: device, timeout: .seconds(5))
            let ntag = try first.isoDEPTag().ntag424()
            try await ntag.selectApplication()
            try await ntag.authenticate(keyNumber: 0, key: .zero)
            try await ntag.enableRandomID()
            await device.close()
            _ = try await device.connect(
                to: fixture.reader, configuration: fixture.configuration(reconnect: false, liveness: nil))
            let second = try await TagSession.connect(on: device, timeout: .seconds(5))
            #expect(second.uid.count == 4 && second.uid.first == NTAG424DNATable.randomIDFirstByte)
            // A random ID names no maker, but the ATS is the chip's: asked for its GetVersion, the
            // tag is still known.
            #expect(second.chip == .ntag424dna && second.identification.isoDEPVersionAnswer != nil)
            let again = try second.isoDEPTag().ntag424()
            try await again.selectApplication()
            try await again.authenticate(keyNumber: 0, key: .zero)
            let real = try await again.cardUID()
            #expect(real == Self.uid)
            #expect(
                try await again.verifyOriginality(uid: real, publicKey: EmulatorSigningKey.ntag424PublicKey)
                    .verification.isValid)
            await device.close()
        }
    }
}
