import NFCTagKit

/// The README's tag-session tour: compiled with the app in release mode, not run.
func tagSessionTour(device: NFCDevice) async throws {
    let tagSession = try await TagSession.connect(on: device)
    switch tagSession.tag {
    case .type2(let ulc) where ulc.chip == .ultralightC:  // 3DES key, pages
        try await ulc.authenticate(key: .factoryDefault)
    case .type2(let ntag):  // NTAG21x, Ultralight, Ultralight EV1
        try await ntag.protect(
            password: TagPassword(hex: "12345678")!, pack: PACK(hex: "ABCD")!,
            from: ntag.userPages.lowerBound, readProtected: false)
        print(try await ntag.verifyOriginality().verification)
    case .miFareClassic(let classic):  // Classic 1K / 4K
        try await classic.authenticate(sector: 1, keyType: .a, key: .factoryDefault)
        print(try await classic.readBlock(4))
    case .isoDEP(let tag):  // Type 4 and other ISO 14443-4 tags, type A or B
        print(tag.ats)
    case .feliCa(let card):  // FeliCa Lite-S, Standard: NFC Forum Type 3
        print(try await card.readWithoutEncryption(serviceCodes: [0x000B], blocks: [FeliCaBlockElement(block: 0)]))
    case .unknown:
        print(tagSession.identification)  // every raw answer
    @unknown default:  // families to come
        print(tagSession.tag)
    }
}
