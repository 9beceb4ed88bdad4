import CryptoSupport
import NFCChips
import NTAG424Crypto
import Testing

@testable import NFCEmulator

/// The reader's side of DESFire cryptography, written here from the research facts (§2) with
/// `BlockCipher` alone — not from the card's code — so that the card is checked against an
/// independent reading of the same formulas.
enum DESFireReader {
    static func zero(_ cipher: BlockCipher) -> [UInt8] { [UInt8](repeating: 0, count: cipher.blockSize) }
    static func xor(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] { zip(a, b).map { $0 ^ $1 } }
    static func rotate(_ bytes: [UInt8]) -> [UInt8] { Array(bytes.dropFirst()) + [bytes[0]] }

    /// Legacy "send mode": c(i) = D(p(i) ⊕ c(i−1)) from a zero IV.
    static func legacySend(_ cipher: BlockCipher, _ key: [UInt8], _ plain: [UInt8]) -> [UInt8] {
        var previous = zero(cipher)
        var out: [UInt8] = []
        for start in stride(from: 0, to: plain.count, by: cipher.blockSize) {
            let block = Array(plain[start..<(start + cipher.blockSize)])
            previous = cipher.decrypt(key: key, iv: zero(cipher), xor(block, previous))
            out += previous
        }
        return out
    }

    /// Legacy receive: CBC decryption from a zero IV.
    static func legacyReceive(_ cipher: BlockCipher, _ key: [UInt8], _ data: [UInt8]) -> [UInt8] {
        cipher.decrypt(key: key, iv: zero(cipher), data)
    }

    /// `data` zero-padded to whole blocks.
    static func zeroPad(_ data: [UInt8], _ cipher: BlockCipher) -> [UInt8] {
        var padded = data
        while padded.count % cipher.blockSize != 0 { padded.append(0) }
        return padded
    }

    /// The legacy 4-byte MAC: CBC encryption of the zero-padded data from a zero IV.
    static func legacyMAC(_ cipher: BlockCipher, _ key: [UInt8], _ data: [UInt8]) -> [UInt8] {
        Array(cipher.encrypt(key: key, iv: zero(cipher), zeroPad(data, cipher)).suffix(cipher.blockSize).prefix(4))
    }

    /// CMAC (NIST SP 800-38B) CBC-chained from `iv`: the EV1 running MAC.
    static func cmac(_ cipher: BlockCipher, _ key: [UInt8], iv: [UInt8], _ message: [UInt8]) -> [UInt8] {
        let size = cipher.blockSize
        func shift(_ block: [UInt8]) -> [UInt8] {
            var out = block.enumerated().map { index, byte in
                byte << 1 | (index + 1 < block.count ? block[index + 1] >> 7 : 0)
            }
            if block[0] >= 0x80 { out[size - 1] ^= size == 16 ? 0x87 : 0x1B }
            return out
        }
        let k1 = shift(cipher.encrypt(key: key, iv: zero(cipher), zero(cipher)))
        var padded = message
        var subkey = k1
        if message.isEmpty || message.count % size != 0 {
            padded += [0x80] + [UInt8](repeating: 0, count: (size - (message.count + 1) % size) % size)
            subkey = shift(k1)
        }
        let tail = xor(Array(padded.suffix(size)), subkey)
        return Array(cipher.encrypt(key: key, iv: iv, Array(padded.dropLast(size)) + tail).suffix(size))
    }

    /// An EV1 session as the reader holds it: the session key and the running IV.
    struct EV1 {
        let cipher: BlockCipher
        let key: [UInt8]
        var iv: [UInt8]

        init(_ cipher: BlockCipher, _ key: [UInt8]) {
            self.cipher = cipher
            self.key = key
            iv = DESFireReader.zero(cipher)
        }

        /// A plain command: its CMAC moves the IV.
        mutating func command(_ bytes: [UInt8]) { iv = DESFireReader.cmac(cipher, key, iv: iv, bytes) }

        /// Whether `answer` (data ‖ 8 CMAC bytes) with `status` verifies; the IV moves.
        mutating func verify(_ answer: [UInt8], status: UInt8 = 0x00) -> [UInt8]? {
            guard answer.count >= 8 else { return nil }
            let data = Array(answer.dropLast(8))
            iv = DESFireReader.cmac(cipher, key, iv: iv, data + [status])
            return Array(iv.prefix(8)) == Array(answer.suffix(8)) ? data : nil
        }

        /// Enciphered command data: data ‖ CRC32(command ‖ header ‖ data), zero padding.
        mutating func encipher(_ command: [UInt8], _ data: [UInt8]) -> [UInt8] {
            let plain = DESFireReader.zeroPad(data + ChipTables.desfire.crc32(command + data), cipher)
            let sealed = cipher.encrypt(key: key, iv: iv, plain)
            iv = Array(sealed.suffix(cipher.blockSize))
            return sealed
        }

        /// An enciphered answer of `length` bytes: checks CRC32(data ‖ status).
        mutating func decipher(_ answer: [UInt8], length: Int, status: UInt8 = 0x00) -> [UInt8]? {
            let plain = cipher.decrypt(key: key, iv: iv, answer)
            iv = Array(answer.suffix(cipher.blockSize))
            let data = Array(plain.prefix(length))
            return Array(plain[length..<(length + 4)]) == ChipTables.desfire.crc32(data + [status]) ? data : nil
        }
    }
}

/// The card side of DESFire authentication and secure messaging against the published
/// vectors of the research facts (§2: zero keys, real cards) and against non-zero-key round
/// trips computed by ``DESFireReader`` from the facts' formulas.
@Suite("Emulated DESFire: authentication, secure messaging and ChangeKey")
struct DESFireTagCryptoTests {
    /// Authenticates with `key` of the selected level the legacy way; the session key.
    static func legacyAuthenticate(
        _ link: inout DESFireLink, keyNumber: UInt8 = 0, cipher: BlockCipher, key: [UInt8],
        rndA: [UInt8] = bytes("A0 A1 A2 A3 A4 A5 A6 A7")
    ) -> [UInt8]? {
        let challenge = link.command(0x0A, [keyNumber])
        guard challenge.suffix(2) == [0x91, 0xAF] else { return nil }
        let rndB = DESFireReader.legacyReceive(cipher, key, Array(challenge.dropLast(2)))
        let token = DESFireReader.legacySend(cipher, key, rndA + DESFireReader.rotate(rndB))
        let answer = link.command(0xAF, token)
        guard answer.suffix(2) == [0x91, 0x00],
            DESFireReader.legacyReceive(cipher, key, Array(answer.dropLast(2))) == DESFireReader.rotate(rndA)
        else { return nil }
        let first: [UInt8] = Array(rndA[0..<4]) + Array(rndB[0..<4])
        let second: [UInt8] = Array(rndA[4..<8]) + Array(rndB[4..<8])
        return cipher == .des ? first : first + second
    }

    /// Authenticates with 0x1A or 0xAA; the reader's EV1 session.
    static func ev1Authenticate(
        _ link: inout DESFireLink, command: UInt8, keyNumber: UInt8 = 0, cipher: BlockCipher, key: [UInt8],
        rndA: [UInt8]
    ) -> DESFireReader.EV1? {
        let challenge = Array(link.command(command, [keyNumber]).dropLast(2))
        let rndB = cipher.decrypt(key: key, iv: DESFireReader.zero(cipher), challenge)
        let token = cipher.encrypt(
            key: key, iv: Array(challenge.suffix(cipher.blockSize)), rndA + DESFireReader.rotate(rndB))
        let answer = link.command(0xAF, token)
        guard answer.suffix(2) == [0x91, 0x00],
            cipher.decrypt(key: key, iv: Array(token.suffix(cipher.blockSize)), Array(answer.dropLast(2)))
                == DESFireReader.rotate(rndA)
        else { return nil }
        let picks: [Int] =
            switch cipher {
            case .des: [0]
            case .tdea2: [0, 4]
            case .tdea3: [0, 6, 12]
            case .aes128: [0, 12]
            }
        return DESFireReader.EV1(cipher, picks.flatMap { Array(rndA[$0..<($0 + 4)] + rndB[$0..<($0 + 4)]) })
    }

    // MARK: Published vectors

    @Test(
        "Legacy 0x0A with the zero key, real EV1 / EV3 transcripts (facts §2 A, B, C): the card's two answers byte for byte",
        arguments: [
            (
                "CC F5 32 70 57 0A 76 69", "DF 6A B2 9A AE 46 BA 27", "05 EE C3 1F 1E 6A 0C C3 1F EF 83 98 A6 62 13 70",
                "26 AC ED 3C 77 1E F9 A0"
            ),
            (
                "88 28 D6 E4 1E EA 3D 31", "AA 55 A0 5A 86 ED 00 23", "CD 72 DF C6 E6 D0 40 A4 F0 11 17 4E EB E0 3A A6",
                "AD 6C C1 60 25 CC FB 7B"
            ),
            (
                "97 64 21 DC F9 AE DC C0", "53 AE 95 45 7A 7F DF 83", "00 00 00 00 00 00 00 00 FB F9 68 23 32 1C 6E 5C",
                "CC 0B 2E 25 55 EA 03 3D"
            ),
        ])
    func legacyVectors(rndB: String, challenge: String, token: String, answer: String) throws {
        var link = try DESFireLink()
        link.tag.nextChallenge = bytes(rndB)
        #expect(link.send("90 0A 00 00 01 00 00") == bytes(challenge) + [0x91, 0xAF])
        #expect(link.command(0xAF, bytes(token)) == bytes(answer) + [0x91, 0x00])
        #expect(link.tag.session?.scheme == .legacy)
        #expect(link.send("90 64 00 00 01 00 00") == bytes("00 91 00"), "plain answers carry no MAC after 0x0A")
    }

    @Test("ISO 0x1A with the DES zero key, then FormatPICC's CMAC (facts §2 D, a real card): 0A2819F80BA056A0")
    func isoVectorAndCMAC() throws {
        var link = try DESFireLink()
        link.tag.nextChallenge = bytes("99 D2 F4 FF 53 EF 2D 54")
        #expect(link.send("90 1A 00 00 01 00 00") == bytes("83 B8 79 40 92 32 72 59 91 AF"))
        let token = bytes("CC 45 06 66 5C 22 9B 49 BB D7 B6 71 13 A9 42 F3")
        #expect(link.command(0xAF, token) == bytes("03 FB 11 80 0B 82 04 95 91 00"))
        #expect(link.tag.session?.key == bytes("01 02 03 04 99 D2 F4 FF"))
        #expect(link.send("90 FC 00 00 00") == bytes("0A 28 19 F8 0B A0 56 A0 91 00"))
    }

    @Test(
        "EV1 zero-key examples (facts §2 E): DES and 3K3DES by 0x1A, AES by 0xAA — the card's answer E(RndA′)",
        arguments: [
            (
                UInt8(0x00), UInt8(0x1A), "4F D1 B7 59 42 A8 B8 E1", "5D 99 4C E0 85 F2 40 89",
                "21 D0 AD 5F 2F D9 74 54 A7 46 CC 80 56 7F 1B 1C", "91 3C 6D ED 84 22 1C 41"
            ),
            (
                0x41, 0x1A, "31 6E 6D 76 A4 49 F9 25 BA 30 4F B2 65 36 56 A2",
                "BC 1C 57 0B C9 48 15 61 87 13 23 64 E4 DC E1 76",
                "DD DC 9A 77 59 7F 03 A4 0C 7F AA 36 2F 45 A8 EA DB E4 6A 11 5D 98 19 8C BF 36 A6 E5 1B 39 D8 7C",
                "72 44 D9 35 ED 9A 13 06 CD 8C 84 1A 7C 1D E3 9A"
            ),
            (
                0x81, 0xAA, "C0 5D DD 71 4F D7 88 A6 B7 B7 54 F3 C4 D0 66 E8",
                "B9 69 FD FE 56 FD 91 FC 9D E6 F6 F2 13 B8 FD 1E",
                "36 AA D7 DF 6E 43 6B A0 8D 18 61 38 30 A7 0D 5A D4 3E 3D 3F 4A 8D 47 54 1E EE 62 3A 93 4E 47 74",
                "80 0D B6 80 BC 14 6B D1 21 D6 57 8F 2D 2E 20 59"
            ),
        ])
    func ev1Vectors(keyFlag: UInt8, command: UInt8, rndB: String, challenge: String, token: String, answer: String)
        throws
    {
        var link = try DESFireLink()
        #expect(link.command(0xCA, [0x01, 0x00, 0x00, 0x0F, 0x01 | keyFlag]) == bytes("91 00"))
        #expect(link.command(0x5A, bytes("01 00 00")) == bytes("91 00"))
        link.tag.nextChallenge = bytes(rndB)
        #expect(link.command(command, [0x00]) == bytes(challenge) + [0x91, 0xAF])
        #expect(link.command(0xAF, bytes(token)) == bytes(answer) + [0x91, 0x00])
        #expect(link.tag.session?.scheme == .ev1)
    }

    @Test("AuthenticateEV2First with AN12196's numbers on an EV2 (facts §2 I): the card's answer byte for byte")
    func ev2Vector() throws {
        var link = try DESFireLink(.desfireEV2)
        _ = link.command(0xCA, bytes("01 00 00 0F 81"))
        _ = link.command(0x5A, bytes("01 00 00"))
        link.tag.nextChallenge = bytes("B9 E2 FC 78 9B 64 BF 23 7C CC AA 20 EC 7E 6E 48")
        link.tag.nextTransactionIdentifier = bytes("9D 00 C4 DF")
        #expect(link.send("90 71 00 00 02 00 00 00") == bytes("A0 4C 12 42 13 C1 86 F2 23 99 D3 3A C2 A3 02 15 91 AF"))
        let token = bytes(
            "35 C3 E0 5A 75 2E 01 44 BA C0 DE 51 C1 F2 2C 56 B3 44 08 A2 3D 8A EA 26 6C AB 94 7E A8 E0 11 8D")
        let answer = bytes(
            "3F A6 4D B5 44 6D 1F 34 CD 6E A3 11 16 7F 5E 49 85 B8 96 90 C0 4A 05 F1 7F A7 AB 2F 08 12 06 63 91 00")
        #expect(link.command(0xAF, token) == answer)
        #expect(link.tag.session?.ev2?.encryptionKey == bytes("13 09 C8 77 50 9E 5A 21 50 07 FF 0E D1 9C A5 64"))
        #expect(link.tag.session?.ev2?.macKey == bytes("4C 66 26 F5 E7 2E A6 94 20 21 39 29 5C 7A 7F C7"))
        var ev1 = try DESFireLink(.desfireEV1)
        #expect(ev1.send("90 71 00 00 02 00 00 00") == bytes("91 1C"), "an EV1 has no EV2 authentication")
    }

    @Test("Card-side primitives: CMAC (NIST SP 800-38B), CRC32 and CRC16 vectors, session-key picks, send mode")
    func primitives() {
        let crypto = DESFireCardCrypto.self
        let nist = bytes("2B 7E 15 16 28 AE D2 A6 AB F7 15 88 09 CF 4F 3C")
        let zero = [UInt8](repeating: 0, count: 16)
        let (k1, k2) = crypto.subkeys(.aes128, key: nist)
        #expect(k1 == bytes("FB EE D6 18 35 71 33 66 7C 85 E0 8F 72 36 A8 DE"))
        #expect(k2 == bytes("F7 DD AC 30 6A E2 66 CC F9 0B C1 1E E4 6D 51 3B"))
        #expect(
            crypto.cmac(.aes128, key: nist, iv: zero, []) == bytes("BB 1D 69 29 E9 59 37 28 7F A3 7D 12 9B 75 67 46"))
        #expect(
            crypto.cmac(.aes128, key: nist, iv: zero, bytes("6B C1 BE E2 2E 40 9F 96 E9 3D 7E 11 73 93 17 2A"))
                == bytes("07 0A 16 B4 6B 4D 41 44 F7 9B DD 9D D0 4A 28 7C"))
        let des = bytes("01 23 45 67 89 AB CD EF FE DC BA 98 76 54 32 10")
        for message in [[], bytes("01 02 03"), (0..<24).map(UInt8.init)] {
            #expect(
                crypto.cmac(.tdea2, key: des, iv: [UInt8](repeating: 0, count: 8), message)
                    == BlockCipher.tdea2.cmac(key: des, message))
            #expect(
                DESFireReader.cmac(.tdea2, des, iv: [UInt8](repeating: 0, count: 8), message)
                    == BlockCipher.tdea2.cmac(key: des, message))
        }
        for vector in ChipTables.desfire.crc32.testVectors { #expect(crypto.crc32(vector.data) == vector.crc) }
        #expect(crypto.crc16(bytes("04 44 0F 32 76 31 80")) == bytes("27 98"))
        #expect(crypto.crc16(bytes("00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 01")) == bytes("43 15"))
        let rndA = bytes("01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16")
        var rndB = [UInt8](repeating: 0, count: 16)
        rndB.replaceSubrange(0..<4, with: bytes("BB 9C F5 4B"))
        rndB.replaceSubrange(12..<16, with: bytes("39 83 F2 BF"))
        #expect(
            crypto.sessionKey(.aes128, rndA: rndA, rndB: rndB)
                == bytes("01 02 03 04 BB 9C F5 4B 13 14 15 16 39 83 F2 BF"))
        // Facts §2 K: send mode with key 01…01 turns 730DDFADA4D20789 into D659E17043A84068; the card reads it back.
        let key = [UInt8](repeating: 0x01, count: 8)
        #expect(
            DESFireReader.legacySend(.des, key, bytes("73 0D DF AD A4 D2 07 89")) == bytes("D6 59 E1 70 43 A8 40 68"))
        #expect(crypto.legacyOpen(.des, key: key, bytes("D6 59 E1 70 43 A8 40 68")) == bytes("73 0D DF AD A4 D2 07 89"))
    }

    // MARK: Non-zero keys

    @Test("Legacy with non-zero keys: ChangeKey (CRC16), 2K3DES and DES auth, enciphered and MACed files, GetCardUID")
    func legacyNonZeroKeys() throws {
        var link = try DESFireLink()
        let zero = [UInt8](repeating: 0, count: 8)
        var session = try #require(Self.legacyAuthenticate(&link, cipher: .des, key: zero))
        // PICC master key → 2K3DES 00112233…FF (version 0x55 in the parity bits), same-key form.
        let tdes = bytes("00 11 22 33 44 55 66 77 88 99 AA BB CC DD EE FF")
        let cryptogram = DESFireReader.legacySend(
            .des, session, DESFireReader.zeroPad(tdes + ChipTables.crcA(tdes), .des))
        #expect(link.command(0xC4, [0x00] + cryptogram) == bytes("91 00"))
        #expect(link.tag.session == nil, "changing the authenticated key ends the session")
        #expect(link.command(0x64, [0x00]) == bytes("55 91 00"))
        #expect(Self.legacyAuthenticate(&link, cipher: .des, key: zero) == nil, "the old key fails")
        session = try #require(Self.legacyAuthenticate(&link, cipher: .tdea2, key: tdes))
        #expect(session.count == 16 && link.tag.session?.key == session)
        // GetCardUID: UID ‖ CRC16 ‖ zeros, enciphered from a zero IV.
        let uid = link.command(0x51)
        #expect(uid.count == 16 + 2)
        let plainUID = DESFireReader.legacyReceive(.tdea2, session, Array(uid.prefix(16)))
        #expect(
            Array(plainUID.prefix(7)) == DESFireLink.uid && Array(plainUID[7..<9]) == ChipTables.crcA(DESFireLink.uid))

        // An application with a non-zero single-DES key 2 (halves equal), changed by key 0 (other-key form).
        #expect(link.command(0xCA, bytes("01 00 00 0F 03")) == bytes("91 00"))
        #expect(link.command(0x5A, bytes("01 00 00")) == bytes("91 00"))
        let appSession = try #require(Self.legacyAuthenticate(&link, cipher: .des, key: zero))
        let desKey = bytes("10 32 54 76 98 BA DC FE")
        let newKey = desKey + desKey
        let xored = DESFireReader.xor(newKey, [UInt8](repeating: 0, count: 16))
        let change = DESFireReader.zeroPad(xored + ChipTables.crcA(xored) + ChipTables.crcA(newKey), .des)
        #expect(link.command(0xC4, [0x02] + DESFireReader.legacySend(.des, appSession, change)) == bytes("91 00"))
        // An enciphered file and a MACed one, both read and written with key 2.
        #expect(link.command(0xCD, bytes("01 03 22 22 14 00 00")) == bytes("91 00"))
        #expect(link.command(0xCD, bytes("02 01 22 22 10 00 00")) == bytes("91 00"))
        let key2 = try #require(Self.legacyAuthenticate(&link, keyNumber: 2, cipher: .des, key: desKey))
        let hello = Array("Hello World".utf8)
        let sealed = DESFireReader.legacySend(.des, key2, DESFireReader.zeroPad(hello + ChipTables.crcA(hello), .des))
        #expect(link.command(0x3D, bytes("01 00 00 00 0B 00 00") + sealed) == bytes("91 00"))
        let read = link.command(0xBD, bytes("01 00 00 00 00 00 00"))
        #expect(read.count == 24 + 2 && read.suffix(2) == [0x91, 0x00])
        let plain = DESFireReader.legacyReceive(.des, key2, Array(read.prefix(24)))
        let content = hello + [UInt8](repeating: 0, count: 9)
        #expect(Array(plain.prefix(20)) == content && Array(plain[20..<22]) == ChipTables.crcA(content))
        let data = bytes("DE AD BE EF")
        let mac = DESFireReader.legacyMAC(.des, key2, data)
        #expect(link.command(0x3D, bytes("02 00 00 00 04 00 00") + data + mac) == bytes("91 00"))
        #expect(link.command(0xBD, bytes("02 00 00 00 04 00 00")) == data + mac + [0x91, 0x00])
        _ = try #require(Self.legacyAuthenticate(&link, keyNumber: 2, cipher: .des, key: desKey))
        var wrong = mac
        wrong[0] ^= 0x01
        #expect(link.command(0x3D, bytes("02 00 00 00 04 00 00") + data + wrong) == bytes("91 1E"))
        #expect(link.tag.session == nil, "an integrity error ends the session")
    }

    @Test(
        "EV1 AES, non-zero keys: PICC key to AES (number | 80), 0xAA, CMACs, enciphered GetCardUID, ChangeKey, data"
    )
    func ev1AESNonZeroKeys() throws {
        var link = try DESFireLink()
        let session = try #require(Self.legacyAuthenticate(&link, cipher: .des, key: [UInt8](repeating: 0, count: 8)))
        let aes = bytes("00 11 22 33 44 55 66 77 88 99 AA BB CC DD EE F0")
        let keyData = aes + [0x42]
        let change = DESFireReader.zeroPad(keyData + ChipTables.crcA(keyData), .des)
        #expect(link.command(0xC4, [0x80] + DESFireReader.legacySend(.des, session, change)) == bytes("91 00"))
        #expect(link.command(0x45) == bytes("0F 81 91 00"), "the PICC key is AES now")
        #expect(link.command(0x64, [0x00]) == bytes("42 91 00"), "an AES key keeps its version byte")
        #expect(link.command(0x0A, [0x00]) == bytes("91 AE"), "legacy authentication needs a DES key")

        var reader = try #require(
            Self.ev1Authenticate(&link, command: 0xAA, cipher: .aes128, key: aes, rndA: Array(1...16)))
        reader.command([0x45])
        #expect(reader.verify(Array(link.command(0x45).dropLast(2))) == [0x0F, 0x81])
        reader.command([0x51])
        let uid = link.command(0x51)
        #expect(uid.count == 16 + 2 && reader.decipher(Array(uid.dropLast(2)), length: 7) == DESFireLink.uid)
        let create = bytes("01 00 00 0F 82")
        reader.command([0xCA] + create)
        #expect(reader.verify(Array(link.command(0xCA, create).dropLast(2))) == [])
        #expect(link.command(0x5A, bytes("01 00 00")) == bytes("91 00"), "select answers without a CMAC")

        // In the application: key 0 (zero) changes key 1 to a non-zero key, other-key form.
        var master = try #require(
            Self.ev1Authenticate(
                &link, command: 0xAA, cipher: .aes128, key: [UInt8](repeating: 0, count: 16), rndA: Array(17...32)))
        let key1 = bytes("F0 E1 D2 C3 B4 A5 96 87 78 69 5A 4B 3C 2D 1E 0F")
        let xored = DESFireReader.xor(key1, [UInt8](repeating: 0, count: 16)) + [0x07]
        let plain = DESFireReader.zeroPad(
            xored + ChipTables.desfire.crc32([0xC4, 0x01] + xored) + ChipTables.desfire.crc32(key1), .aes128)
        let sealed = BlockCipher.aes128.encrypt(key: master.key, iv: master.iv, plain)
        master.iv = Array(sealed.suffix(16))
        #expect(master.verify(Array(link.command(0xC4, [0x01] + sealed).dropLast(2))) == [])
        let file = bytes("01 03 10 11 28 00 00")
        master.command([0xCD] + file)
        #expect(master.verify(Array(link.command(0xCD, file).dropLast(2))) == [])

        // Key 1 reads and writes the enciphered file: 40 bytes take two frames.
        var user = try #require(
            Self.ev1Authenticate(&link, command: 0xAA, keyNumber: 1, cipher: .aes128, key: key1, rndA: Array(33...48)))
        let data = (0..<40).map { UInt8($0 * 3) }
        let header = bytes("01 00 00 00 28 00 00")
        let wire = header + user.encipher([0x3D] + header, data)
        #expect(link.command(0x3D, Array(wire.prefix(54))) == bytes("91 AF"))
        #expect(user.verify(Array(link.command(0xAF, Array(wire.dropFirst(54))).dropLast(2))) == [])
        let read = bytes("01 00 00 00 00 00 00")
        user.command([0xBD] + read)
        let answer = link.command(0xBD, read)
        #expect(answer.count == 48 + 2 && user.decipher(Array(answer.dropLast(2)), length: 40) == data)
        user.command([0x64, 0x01])
        #expect(user.verify(Array(link.command(0x64, [0x01]).dropLast(2))) == [0x07])
        var tampered = header + user.encipher([0x3D] + header, data)
        tampered[tampered.count - 1] ^= 0x01
        _ = link.command(0x3D, Array(tampered.prefix(54)))
        #expect(link.command(0xAF, Array(tampered.dropFirst(54))) == bytes("91 1E"))
    }

    @Test("EV1 ISO 0x1A with non-zero 3K3DES and 2K3DES keys: ChangeKey of the own key (CRC32), then CMACed answers")
    func ev1TripleDESNonZeroKeys() throws {
        var link = try DESFireLink()
        _ = link.command(0xCA, bytes("01 00 00 0F 41"))
        _ = link.command(0xCA, bytes("02 00 00 0F 01"))
        for (aid, cipher, key) in [
            (
                bytes("01 00 00"), BlockCipher.tdea3,
                bytes("01 23 45 67 89 AB CD EF 10 32 54 76 98 BA DC FE 0F 1E 2D 3C 4B 5A 69 78")
            ),
            (bytes("02 00 00"), .tdea2, bytes("13 57 9B DF 02 46 8A CE F1 E2 D3 C4 B5 A6 97 88")),
        ] {
            #expect(link.command(0x5A, aid) == bytes("91 00"))
            let zeroCipher: BlockCipher = cipher == .tdea3 ? .tdea3 : .des
            var reader = try #require(
                Self.ev1Authenticate(
                    &link, command: 0x1A, cipher: zeroCipher, key: [UInt8](repeating: 0, count: zeroCipher.keyLength),
                    rndA: Array(1...UInt8(DESFireCardCrypto.challengeLength(zeroCipher)))))
            let plain = DESFireReader.zeroPad(key + ChipTables.desfire.crc32([0xC4, 0x00] + key), reader.cipher)
            let sealed = reader.cipher.encrypt(key: reader.key, iv: reader.iv, plain)
            #expect(link.command(0xC4, [0x00] + sealed) == bytes("91 00"), "own key: a plain answer, the session ends")
            let version = key.prefix(8).reduce(UInt8(0)) { $0 << 1 | $1 & 1 }
            #expect(link.command(0x64, [0x00]) == [version, 0x91, 0x00], "the version in the parity bits")
            reader = try #require(
                Self.ev1Authenticate(
                    &link, command: 0x1A, cipher: cipher, key: key,
                    rndA: Array(101...UInt8(100 + DESFireCardCrypto.challengeLength(cipher)))))
            #expect(reader.key.count == cipher.keyLength)
            reader.command([0x45])
            let settings = link.command(0x45)
            #expect(reader.verify(Array(settings.dropLast(2))) == [0x0F, 0x01 | (cipher == .tdea3 ? 0x40 : 0)])
        }
    }

    @Test(
        "EV2First and NonFirst with non-zero AES keys on an EV3: MACed GetKeyVersion, enciphered WriteData and ReadData"
    )
    func ev2NonZeroKeys() throws {
        var link = try DESFireLink(.desfireEV3)
        _ = link.command(0xCA, bytes("01 00 00 0F 82"))
        _ = link.command(0x5A, bytes("01 00 00"))
        _ = link.command(0xCD, bytes("01 03 10 EE 20 00 00"))
        let key0 = try AES128Key(bytes("A0 A1 A2 A3 A4 A5 A6 A7 A8 A9 AA AB AC AD AE AF"))
        let key1 = try AES128Key(bytes("0F 1E 2D 3C 4B 5A 69 78 87 96 A5 B4 C3 D2 E1 F0"))
        link.tag.applications[0].keys[0] = DESFireKey(kind: .aes, bytes: key0.bytes, version: 0x10)
        link.tag.applications[0].keys[1] = DESFireKey(kind: .aes, bytes: key1.bytes, version: 0x11)

        var first = EV2Authentication(kind: .first, keyNumber: 1, key: key1)
        let challenge = link.command(0x71, first.initialCommandData())
        let done = link.command(0xAF, try first.respond(toChallenge: Array(challenge.dropLast(2))))
        #expect(done.suffix(2) == [0x91, 0x00])
        var session = try first.finish(response: Array(done.dropLast(2)))
        let field = try session.protectCommand(command: 0x64, header: [0x00], data: [], mode: .mac)
        #expect(try session.openResponse(data: Array(link.command(0x64, field).dropLast(2)), mode: .mac) == [0x10])

        let data = (0..<32).map { UInt8(0xFF - $0) }
        let header = bytes("01 00 00 00 20 00 00")
        let write = try session.protectCommand(command: 0x3D, header: header, data: data, mode: .full)
        let wire = Array(write)
        #expect(link.command(0x3D, Array(wire.prefix(54))) == bytes("91 AF"))
        let written = link.command(0xAF, Array(wire.dropFirst(54)))
        #expect(try session.openResponse(data: Array(written.dropLast(2)), mode: .mac) == [])

        var nonFirst = EV2Authentication(kind: .nonFirst, keyNumber: 1, key: key1)
        let again = link.command(0x77, nonFirst.initialCommandData())
        let finished = link.command(0xAF, try nonFirst.respond(toChallenge: Array(again.dropLast(2))))
        session = try nonFirst.finish(response: Array(finished.dropLast(2)), continuing: session)
        let read = try session.protectCommand(
            command: 0xBD, header: bytes("01 00 00 00 00 00 00"), data: [], mode: .mac)
        let answer = link.command(0xBD, read)
        #expect(answer.suffix(2) == [0x91, 0x00])
        #expect(try session.openResponse(data: Array(answer.dropLast(2)), mode: .full) == data)
        #expect(link.command(0x64, [0x00]) == bytes("91 7E"), "a command without its MAC in an EV2 session")
    }

    @Test("SetConfiguration in a legacy session: option 00 disables FormatPICC (919D); option 02 stores an ATS")
    func setConfiguration() throws {
        var link = try DESFireLink()
        let zero = [UInt8](repeating: 0, count: 8)
        var session = try #require(Self.legacyAuthenticate(&link, cipher: .des, key: zero))
        let option = DESFireReader.zeroPad([0x01] + ChipTables.crcA([0x01]), .des)
        #expect(link.command(0x5C, [0x00] + DESFireReader.legacySend(.des, session, option)) == bytes("91 00"))
        #expect(link.command(0xFC) == bytes("91 9D"))
        session = try #require(Self.legacyAuthenticate(&link, cipher: .des, key: zero))
        let ats = bytes("06 75 77 81 02 80")
        let atsPlain = DESFireReader.zeroPad(ats + ChipTables.crcA(ats) + [0x80], .des)
        #expect(link.command(0x5C, [0x02] + DESFireReader.legacySend(.des, session, atsPlain)) == bytes("91 00"))
        #expect(link.tag.ats == ats && !link.tag.usesRandomUID && link.tag.formatDisabled)
        let wrongCRC = DESFireReader.zeroPad([0x02, 0x00, 0x00], .des)
        session = try #require(Self.legacyAuthenticate(&link, cipher: .des, key: zero))
        #expect(link.command(0x5C, [0x00] + DESFireReader.legacySend(.des, session, wrongCRC)) == bytes("91 1E"))
    }
}
