import NFCChips

/// The NTAG21x ASCII mirror: READ and FAST_READ show the UID and / or the NFC counter as
/// upper-case hex text from MIRROR_PAGE, byte MIRROR_BYTE, instead of the stored bytes.
extension Type2Tag {
    /// The mirror text and the memory address it starts at, or `nil` when nothing is mirrored.
    var mirrorOverlay: (address: Int, text: [UInt8])? {
        guard let configuration = memoryMap.configuration, let rules = configuration.mirror,
            let conf = self.configuration(.mirrorConf), conf != 0,
            let mirrorPage = self.configuration(.mirrorPage).map(Int.init),
            mirrorPage >= rules.firstMirrorPage, mirrorPage <= memoryMap.lastUserPage
        else { return nil }
        let mirrorByte = Int(self.configuration(.mirrorByte) ?? 0)
        var text: [UInt8] = []
        if conf & rules.uidMirrorBit != 0 { text += asciiHex(identity.uid) }
        if conf & rules.counterMirrorBit != 0, showsCounterMirror(rules) {
            if !text.isEmpty { text.append(rules.separator) }
            text += asciiHex(littleEndian24(nfcCounter).reversed())
        }
        guard !text.isEmpty else { return nil }
        // The mirror never runs past the user memory.
        let start = mirrorPage * memoryMap.pageSize + mirrorByte
        let end = (memoryMap.lastUserPage + 1) * memoryMap.pageSize
        return (start, Array(text.prefix(max(0, end - start))))
    }

    /// Whether the counter part is shown: the counter must be enabled, and with
    /// NFC_CNT_PWD_PROT only after PWD_AUTH (unverified, see the table's caveat).
    private func showsCounterMirror(_ rules: MirrorSpec) -> Bool {
        if rules.counterNeedsCounterEnabled, configuration(.nfcCounterEnable) != 1 { return false }
        if configuration(.nfcCounterPasswordProtect) == 1, !isAuthenticated { return false }
        return true
    }

    /// `page` as READ shows it: zeros for PWD / PACK, mirror text where it lies.
    func visiblePage(_ page: Int) -> [UInt8] {
        if readsAsZero(page) { return [UInt8](repeating: 0, count: memoryMap.pageSize) }
        var bytes = self.page(page)
        guard let (address, text) = mirrorOverlay else { return bytes }
        let pageStart = page * memoryMap.pageSize
        for index in bytes.indices {
            let offset = pageStart + index - address
            if offset >= 0, offset < text.count { bytes[index] = text[offset] }
        }
        return bytes
    }

    private func asciiHex<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [UInt8] {
        let digits = Array("0123456789ABCDEF".utf8)
        return bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }
    }
}
