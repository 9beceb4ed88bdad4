import TestSupport
import Testing
import NFCChips

@Suite("Chip identification")
struct ChipIdentifierTests {
    @Test("every chip in the tables is identified from its own answers", arguments: Chip.allCases)
    func identifiesEveryChip(chip: Chip) {
        let spec = ChipTables.spec(for: chip)
        let responses: [[UInt8]?] = spec.getVersion?.allResponses ?? [nil]
        for response in responses {
            let probe: Bool? = response == nil ? spec.supports(.authenticate) : nil
            let result = ChipIdentifier.identify(
                atqa: spec.activation.atqa, sak: spec.activation.sak,
                getVersion: response, answersUltralightCAuthenticate: probe,
                isoDEPVersion: (spec.ntag424?.getVersion ?? spec.desfire?.getVersion)?.hardware)
            // Activation alone cannot tell ISO-DEP chips apart (NTAG 424 DNA answers the ATQA
            // and SAK of any DESFire-like tag): its native GetVersion over ISO-DEP does.
            #expect(result == .identified(chip), "\(chip.rawValue) \(response?.hexText ?? "no GET_VERSION")")
        }
    }

    /// Recorded GetVersion hardware parts of real cards (facts file §4): every storage size
    /// and subtype of a generation is that generation; a DESFire Light or DUOX is not.
    @Test(
        "DESFire generations by the major hardware version of real cards",
        arguments: [
            ("04010101001805", Chip.desfireEV1), ("04010201001605", .desfireEV1),
            ("04010112001805", .desfireEV2), ("04010212001A05", .desfireEV2),
            ("04010133001605", .desfireEV3), ("04010133001A05", .desfireEV3),
            ("040101A0001625", .type4), ("04080130001305", .type4),
        ])
    func desfireGenerations(hardware: String, chip: Chip) {
        let bytes = stride(from: 0, to: hardware.count, by: 2).map {
            UInt8(hardware.dropFirst($0).prefix(2), radix: 16)!
        }
        #expect(
            ChipIdentifier.identify(
                atqa: 0x0344, sak: 0x20, getVersion: nil, answersUltralightCAuthenticate: nil, isoDEPVersion: bytes)
                == .identified(chip))
    }

    @Test("NTAG215 is never reported as an Ultralight, whatever the probe says")
    func ntag215NotUltralight() {
        let version = ChipTables.spec(for: .ntag215).getVersion!.response
        for probe in [true, false, nil] as [Bool?] {
            #expect(
                ChipIdentifier.identify(
                    atqa: 0x0044, sak: 0x00, getVersion: version,
                    answersUltralightCAuthenticate: probe) == .identified(.ntag215))
        }
    }

    @Test("a newer minor version of a known product is still that product")
    func newerMinorVersion() {
        let bumped: [UInt8] = [0x00, 0x04, 0x04, 0x02, 0x01, 0x01, 0x11, 0x03]
        #expect(
            ChipIdentifier.identify(atqa: 0x0044, sak: 0x00, getVersion: bumped, answersUltralightCAuthenticate: nil)
                == .identified(.ntag215))
    }

    @Test(
        "unknown GET_VERSION answers stay unknown",
        arguments: [
            [0x00, 0x05, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03] as [UInt8],  // unknown vendor
            [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x15, 0x03],  // unknown storage byte
            [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11],  // wrong length
            [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03, 0x00],  // wrong length
            [],
            [0x00, 0x04, 0x05, 0x02, 0x01, 0x00, 0x11, 0x03],  // unknown product type
        ])
    func unknownVersions(version: [UInt8]) {
        let result = ChipIdentifier.identify(
            atqa: 0x0044, sak: 0x00, getVersion: version, answersUltralightCAuthenticate: true)
        #expect(result == .unknown(atqa: 0x0044, sak: 0x00, getVersion: version))
        #expect(result.chip == nil)
    }

    @Test("SAK decides Classic and Type 4")
    func sakRules() {
        #expect(
            ChipIdentifier.identify(atqa: 0x0004, sak: 0x08, getVersion: nil, answersUltralightCAuthenticate: nil)
                == .identified(.classic1k))
        #expect(
            ChipIdentifier.identify(atqa: 0x0002, sak: 0x18, getVersion: nil, answersUltralightCAuthenticate: nil)
                == .identified(.classic4k))
        #expect(
            ChipIdentifier.identify(atqa: 0x0044, sak: 0x08, getVersion: nil, answersUltralightCAuthenticate: nil)
                == .identified(.classic1k))
        #expect(
            ChipIdentifier.identify(atqa: 0x0344, sak: 0x20, getVersion: nil, answersUltralightCAuthenticate: nil)
                == .identified(.type4))
        #expect(
            ChipIdentifier.identify(atqa: 0x0004, sak: 0x60, getVersion: nil, answersUltralightCAuthenticate: nil)
                == .identified(.type4))
    }

    @Test(
        "unknown SAK or ATQA stays unknown",
        arguments: [
            (UInt16(0x0044), UInt8(0x09)), (0x0044, 0x01), (0x0004, 0x00), (0x0400, 0x00), (0x0044, 0x88),
        ])
    func unknownActivation(atqa: UInt16, sak: UInt8) {
        let version = ChipTables.spec(for: .ntag213).getVersion!.response
        #expect(
            ChipIdentifier.identify(atqa: atqa, sak: sak, getVersion: version, answersUltralightCAuthenticate: false)
                == .unknown(atqa: atqa, sak: sak, getVersion: version))
    }

    @Test("without GET_VERSION the UL-C probe decides; no probe means unknown")
    func probeRules() {
        #expect(
            ChipIdentifier.identify(atqa: 0x0044, sak: 0x00, getVersion: nil, answersUltralightCAuthenticate: true)
                == .identified(.ultralightC))
        #expect(
            ChipIdentifier.identify(atqa: 0x0044, sak: 0x00, getVersion: nil, answersUltralightCAuthenticate: false)
                == .identified(.ultralight))
        #expect(
            ChipIdentifier.identify(atqa: 0x0044, sak: 0x00, getVersion: nil, answersUltralightCAuthenticate: nil)
                == .unknown(atqa: 0x0044, sak: 0x00, getVersion: nil))
    }

    @Test("the UL-C authenticate answer is AF + 8 bytes")
    func ulcAnswer() {
        let vector = ChipTables.spec(for: .ultralightC).ultralightCAuthentication!.testVector
        #expect(ChipIdentifier.isUltralightCAuthenticateAnswer([0xAF] + vector.encryptedRndB))
        #expect(!ChipIdentifier.isUltralightCAuthenticateAnswer([0x00] + vector.encryptedRndB))
        #expect(!ChipIdentifier.isUltralightCAuthenticateAnswer([0xAF]))
        #expect(!ChipIdentifier.isUltralightCAuthenticateAnswer([]))
    }

    @Test("random answers never trap and identify only with a listed GET_VERSION")
    func randomAnswers() {
        let seed = UInt64.random(in: 0...UInt64.max)
        var rng = SplitMix64(seed: seed)
        let known = Set(ChipTables.chips.flatMap { $0.getVersion?.allResponses ?? [] })
        for _ in 0..<2000 {
            let version = (0..<Int.random(in: 0...10, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let result = ChipIdentifier.identify(
                atqa: 0x0044, sak: 0x00, getVersion: version, answersUltralightCAuthenticate: nil)
            if case let .identified(chip) = result {
                #expect(version.count == 8 && version[1] == 0x04, "seed \(seed): \(version.hexText) → \(chip)")
                #expect(ChipTables.spec(for: chip).family.isType2, "seed \(seed)")
            } else {
                #expect(!known.contains(version), "seed \(seed)")
            }
        }
    }

    @Test(
        "an ISO-DEP tag's native GetVersion tells an NTAG 424 DNA from other Type 4 tags; a new major version is still one"
    )
    func isoDEPVersion() {
        let ntag424 = ChipTables.spec(for: .ntag424dna).ntag424!.getVersion.hardware
        #expect(
            ChipIdentifier.identify(
                atqa: 0x0344, sak: 0x20, getVersion: nil, answersUltralightCAuthenticate: nil,
                isoDEPVersion: ntag424) == .identified(.ntag424dna))
        var newMajor = ntag424
        newMajor[3] = 0x31
        #expect(
            ChipIdentifier.identify(
                atqa: 0x0344, sak: 0x20, getVersion: nil, answersUltralightCAuthenticate: nil,
                isoDEPVersion: newMajor) == .identified(.ntag424dna))
        // DESFire EV1 (type 01) is a DESFire; another subtype, another storage size, no answer.
        #expect(
            ChipIdentifier.identify(
                atqa: 0x0344, sak: 0x20, getVersion: nil, answersUltralightCAuthenticate: nil,
                isoDEPVersion: [0x04, 0x01, 0x01, 0x01, 0x00, 0x18, 0x05]) == .identified(.desfireEV1))
        for other in [
            [0x04, 0x04, 0x08, 0x30, 0x00, 0x11, 0x05],
            [0x04, 0x04, 0x02, 0x30, 0x00, 0x13, 0x05], [],
        ] as [[UInt8]] {
            #expect(
                ChipIdentifier.identify(
                    atqa: 0x0344, sak: 0x20, getVersion: nil, answersUltralightCAuthenticate: nil,
                    isoDEPVersion: other) == .identified(.type4), "\(other)")
        }
        // Not ISO-DEP: the ISO-DEP version is not looked at.
        #expect(
            ChipIdentifier.identify(
                atqa: 0x0044, sak: 0x00, getVersion: nil, answersUltralightCAuthenticate: nil,
                isoDEPVersion: ntag424) == .unknown(atqa: 0x0044, sak: 0x00, getVersion: nil))
    }

    @Test(
        "only ISO-DEP tags with NXP's 7-byte UID are asked for their native GetVersion: a random ID or another maker costs no frame"
    )
    func asksISODEPVersionOnlyOfNXP() {
        #expect(ChipIdentifier.asksISODEPVersion(uid: [0x04, 0xE0, 0x5A, 0x11, 0x22, 0x33, 0x44], sak: 0x20))
        #expect(!ChipIdentifier.asksISODEPVersion(uid: [0x08, 0x12, 0x34, 0x56], sak: 0x20))  // random ID
        // ST, then Nordic
        #expect(!ChipIdentifier.asksISODEPVersion(uid: [0x02, 0xE0, 0x5A, 0x11, 0x22, 0x33, 0x44], sak: 0x20))
        #expect(!ChipIdentifier.asksISODEPVersion(uid: [0x5F, 0xE0, 0x5A, 0x11, 0x22, 0x33, 0x44], sak: 0x20))
        #expect(!ChipIdentifier.asksISODEPVersion(uid: [0x04, 0xE0, 0x5A, 0x11], sak: 0x20))
        // An NTAG21x.
        #expect(!ChipIdentifier.asksISODEPVersion(uid: [0x04, 0xE0, 0x5A, 0x11, 0x22, 0x33, 0x44], sak: 0x00))
        #expect(!ChipIdentifier.asksISODEPVersion(uid: [], sak: 0x20))
    }

    @Test(
        "a random ID is asked for its native GetVersion only with a DESFire's or an NTAG 424 DNA's ATS; a phone's is not"
    )
    func asksRandomIDByATS() {
        let randomID: [UInt8] = [0x08, 0x12, 0x34, 0x56]
        // libnfc drops the length byte; a reader that keeps it is matched too.
        #expect(ChipIdentifier.asksISODEPVersion(uid: randomID, sak: 0x20, ats: [0x75, 0x77, 0x81, 0x02, 0x80]))
        #expect(ChipIdentifier.asksISODEPVersion(uid: randomID, sak: 0x20, ats: [0x06, 0x75, 0x77, 0x81, 0x02, 0x80]))
        #expect(ChipIdentifier.asksISODEPVersion(uid: randomID, sak: 0x20, ats: [0x77, 0x77, 0x71, 0x02, 0x80]))
        // A phone's host card emulation (nfcgate #221), and a PN532 in target mode (kpn532).
        #expect(!ChipIdentifier.asksISODEPVersion(uid: randomID, sak: 0x20, ats: [0x78, 0x80, 0x40, 0x00, 0x80]))
        #expect(!ChipIdentifier.asksISODEPVersion(uid: randomID, sak: 0x20, ats: [0x75, 0x33, 0x92, 0x03, 0x80]))
        // A DESFire's ATS behind another UID than a random ID's stays unasked.
        #expect(
            !ChipIdentifier.asksISODEPVersion(
                uid: [0x02, 0x12, 0x34, 0x56], sak: 0x20, ats: [0x75, 0x77, 0x81, 0x02, 0x80]))
    }
}
