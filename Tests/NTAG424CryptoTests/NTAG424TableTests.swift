import CryptoSupport
import NFCChips
import NTAG424Crypto
import Testing

/// `datasheets/chips/ntag424dna.json` against the cryptography: the constants the crypto code
/// uses are the table's, and the table's layouts rebuild AN12196's published frames.
@Suite("NTAG 424 DNA table agrees with the cryptography")
struct NTAG424TableTests {
    static let table = ChipTables.spec(for: .ntag424dna).ntag424!

    @Test func secureMessagingConstantsAreTheTables() throws {
        let sm = Self.table.secureMessaging
        #expect(EV2Session.sv1Label == sm.sv1Label)
        #expect(EV2Session.sv2Label == sm.sv2Label)
        #expect(SDM.sv1Label == sm.sdmSV1Label)
        #expect(SDM.sv2Label == sm.sdmSV2Label)
        #expect(SDM.uidMirroredBit == sm.piccDataTagUIDBit)
        #expect(SDM.readCounterMirroredBit == sm.piccDataTagCounterBit)
        #expect(AES128.pad([]).first == sm.paddingByte)
        #expect(AES128.truncatedMAC([UInt8](repeating: 0, count: 16)).count == sm.macLength)
        // SV1 of Table 14 starts with the label and the fixed bytes of the table.
        let rnd = [UInt8](repeating: 0x11, count: sm.randomLength)
        #expect(
            try EV2Session.sessionVector(label: sm.sv1Label, rndA: rnd, rndB: rnd).prefix(6)
                == ArraySlice(sm.sv1Label + sm.svFixedBytes))
        // PICC data C7: both bits and the 7-byte UID length.
        #expect(
            try SDM.decryptPICCData(hex("EF963FF7828658A599F3041510671E88"), metaReadKey: .zero).tag
                == sm.piccDataTagUIDAndCounter)
    }

    @Test func factoryKeysAreZero() throws {
        let keys = Self.table.keys
        #expect(try AES128Key(keys.factoryKey) == AES128Key.zero)
        #expect(keys.numbers == [0, 1, 2, 3, 4])
        #expect(keys.keyLength == AES128Key.zero.bytes.count)
    }

    /// AN12196 §5.9 Table 18's ChangeFileSettings data, rebuilt from the table's layout:
    /// FileOption 40 (SDM, plain), AR 00E0 (read free, the rest key 0), SDMOptions C1 (UID,
    /// counter, ASCII), SDM AR F121, PICCDataOffset 20, SDMMACInputOffset 43, SDMMACOffset 43.
    @Test func fileSettingsLayoutRebuildsTable18() throws {
        let layout = Self.table.fileSettings
        let fileOption = layout.sdmEnabledBit | layout.communicationModeValues[0]
        let access = NTAG424AccessRightsSpec(read: layout.freeAccess, write: 0, readWrite: 0, change: 0).bytes
        let sdmOptions = layout.uidMirrorBit | layout.readCounterMirrorBit | layout.asciiEncodingBit
        let offset: (Int) -> [UInt8] = { [UInt8($0 & 0xFF), UInt8(($0 >> 8) & 0xFF), UInt8($0 >> 16)] }
        let data = [fileOption] + access + [sdmOptions] + hex("F121") + offset(0x20) + offset(0x43) + offset(0x43)
        #expect(data == hex("4000E0C1F121200000430000430000"))
        // … and that data under session A at CmdCtr 1 is Table 18's frame, with the table's INS.
        let session = try EV2Session(
            encryptionKey: key("1309C877509E5A215007FF0ED19CA564"), macKey: key("4C6626F5E72EA694202139295C7A7FC7"),
            transactionIdentifier: hex("9D00C4DF"), commandCounter: 1)
        let command = Self.table.commands[.changeFileSettings]
        #expect(command.headerLength == 1)
        #expect(
            try session.protectCommand(
                command: command.ins, header: [Self.table.files[.ndef].fileNumber], data: data, mode: .full)
                == hex("0261B6D97903566E84C3AE5274467E89EAD799B7C1A0EF7A04"))
        #expect(layout.mirrorLengths.piccData == 2 * 16 && layout.mirrorLengths.mac == 2 * 8)
    }

    /// The command codes of the table give AN12196's MACs (the command byte is in the MAC input).
    @Test func commandCodesGiveTheTranscriptsMACs() throws {
        let commands = Self.table.commands
        let sessionB = try EV2Session(
            encryptionKey: key("4CF3CB41A22583A61E89B158D252FC53"), macKey: key("5529860B2FC5FB6154B7F28361D30BF9"),
            transactionIdentifier: hex("7614281A"), commandCounter: 3)
        let data = try EV2Session.changeKeyData(
            keyNumber: Self.table.keys.masterKeyNumber, newKey: key("5004BF991F408672B1EF00F08F9E8647"), newVersion: 1)
        #expect(
            try sessionB.protectCommand(command: commands[.changeKey].ins, header: [0], data: data, mode: .full).suffix(
                8)
                == ArraySlice(hex("A6610234BDED6432")))
        let t7 = try EV2Session(
            encryptionKey: .zero, macKey: key("8248134A386E86EB7FAF54A52E536CB6"),
            transactionIdentifier: hex("7A21085E"))
        #expect(
            try t7.protectCommand(
                command: commands[.getFileSettings].ins, header: [Self.table.files[.ndef].fileNumber], data: [],
                mode: .mac)
                == hex("026597A457C8CD442C"))
        let t28 = try EV2Session(
            encryptionKey: key("2B4D963C014DC36F24F69A50A394F875"), macKey: key("379D32130CE61705DD5FD8C36B95D764"),
            transactionIdentifier: hex("DF055522"))
        #expect(
            try t28.protectCommand(command: commands[.getCardUID].ins, header: [], data: [], mode: .full)
                == hex("8E2C155ADDA99BE3"))
        #expect(commands[.readData].headerLength == 7 && commands[.writeData].headerLength == 7)
    }

    /// NXP's NTAG 424 DNA key verifies AN12196's example signature on secp224r1, and refuses
    /// it for another UID.
    @Test func originalitySignatureVectorVerifies() throws {
        let signature = Self.table.originalitySignature
        #expect(signature.publicKey.count == 57)
        for vector in signature.testVectors {
            #expect(vector.signature.count == signature.signatureLength)
            #expect(
                LibCrypto.verifyECDSA(
                    curve: signature.curve, publicKey: signature.publicKey, digest: vector.uid,
                    signature: vector.signature) == .valid)
            var other = vector.uid
            other[6] ^= 1
            #expect(
                LibCrypto.verifyECDSA(
                    curve: signature.curve, publicKey: signature.publicKey, digest: other,
                    signature: vector.signature) == .invalid)
        }
        #expect(!signature.testVectors.isEmpty)
    }

    /// The NFC Forum view of the files (`type4Files`, what the emulator serves) says what the
    /// native file table says.
    @Test func type4ViewAgreesWithTheFiles() throws {
        let spec = ChipTables.spec(for: .ntag424dna)
        let files = try #require(spec.type4Files)
        #expect(files.capabilityContainer == Self.table.files[.capabilityContainer].factoryContent)
        #expect(files.ndefFileSize == Self.table.files[.ndef].size)
        #expect(files.ndefFileFactoryContent == Self.table.files[.ndef].factoryContent)
        // CC: the NDEF File Control TLV names E104 and its size, the proprietary one E105.
        let cc = files.capabilityContainer
        #expect(Array(cc[9...12]) == [0xE1, 0x04, 0x01, 0x00])
        #expect(UInt16(cc[9]) << 8 | UInt16(cc[10]) == Self.table.files[.ndef].isoFileID)
        #expect(UInt16(cc[17]) << 8 | UInt16(cc[18]) == Self.table.files[.proprietary].isoFileID)
        #expect(Int(cc[19]) << 8 | Int(cc[20]) == Self.table.files[.proprietary].size)
        #expect(Self.table.files.map(\.fileNumber) == [1, 2, 3])
    }

    /// The status words the crypto errors correspond to.
    @Test func statusWordsOfTheTypedErrors() {
        let words = Self.table.statusWords
        #expect(words[.integrityError].code == 0x911E)
        #expect(words[.authenticationError].code == 0x91AE)
        #expect(words[.operationOK].code == 0x9100)
        #expect(words[.additionalFrame].code == 0x91AF)
        #expect(Set(words.map(\.code)).count == words.count)
    }
}
