internal import CLibNFC

/// The one place NFCTagKit calls libnfc. Each function makes one libnfc call (or a tight
/// group that belongs together) and turns its C return code into a ``LibNFCError`` naming
/// the call and carrying `nfc_strerror`'s text. Callers above this layer speak Swift types.
///
/// Every function here blocks and must run on the owning ``NFCDevice``'s thread; only
/// ``LibNFC/abortCommand(_:)`` is meant for another thread (libnfc's own contract).
enum LibNFC {
    /// libnfc's version string, such as `1.8.0`.
    static var version: String { String(cString: nfc_version()) }

    /// The process's libnfc context, made at the first libnfc call that needs one and kept
    /// until exit; ``open(connectionString:)`` and ``listDevices(maximum:)`` use it.
    ///
    /// libnfc keeps its driver list in a process global: `nfc_init` fills it when empty,
    /// `nfc_open` and `nfc_list_devices` walk it, and every `nfc_exit` frees it, whoever else
    /// still uses it. Devices that each ran `nfc_init` / `nfc_exit` on their own threads freed
    /// it twice (AddressSanitizer: double free in `nfc_exit`) and took it from a device about
    /// to open (`nfc_open` then finds no driver: NFC_ENOTSUCHDEV). So NFCTagKit makes one
    /// context, once (a lazy static is initialised exactly once), and never frees the list;
    /// the context reads libnfc.conf and the `LIBNFC_*` variables at that first use.
    private struct ProcessContext: @unchecked Sendable {  // libnfc only reads it after nfc_init
        let pointer: OpaquePointer?
    }

    private static let processContext: ProcessContext = {
        var context: OpaquePointer?
        nfc_init(&context)
        return ProcessContext(pointer: context)
    }()

    /// The process's libnfc context (`nfc_init` on first use).
    private static func context() throws(LibNFCError) -> OpaquePointer {
        guard let context = processContext.pointer else {
            throw LibNFCError(code: .software, operation: "nfc_init", message: "libnfc could not allocate a context")
        }
        return context
    }

    /// `nfc_list_devices`: connection strings of the readers libnfc's scan finds, honouring
    /// `LIBNFC_DEVICE`, `LIBNFC_DEFAULT_DEVICE`, `LIBNFC_AUTO_SCAN` and libnfc.conf.
    static func listDevices(maximum: Int = 16) throws(LibNFCError) -> [String] {
        let context = try context()
        let stride = nfctagkit_connstring_size()
        let count = max(1, maximum)
        var buffer = [CChar](repeating: 0, count: stride * count)
        let found = buffer.withUnsafeMutableBufferPointer { raw in
            nfctagkit_list_devices(context, raw.baseAddress, count)
        }
        return (0..<min(found, count)).map { index in
            let start = index * stride
            let slice = buffer[start..<(start + stride)]
            let bytes = slice.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// `nfc_open` then `nfc_initiator_init`. A device that opens but fails to initialise
    /// is closed before the error is thrown, so no half-open handle escapes.
    static func open(connectionString: String?) throws(LibNFCError) -> LibNFCDeviceHandle {
        let context = try context()
        let pointer: OpaquePointer? =
            if let connectionString {
                connectionString.withCString { nfctagkit_open(context, $0) }
            } else {
                nfctagkit_open(context, nil)
            }
        guard let pointer else {
            let what = connectionString ?? "the default reader"
            throw LibNFCError(code: .noSuchDevice, operation: "nfc_open", message: "libnfc could not open \(what)")
        }
        let device = LibNFCDeviceHandle(pointer: pointer)
        do {
            try initiatorInit(device)
        } catch {
            close(device)
            throw error
        }
        return device
    }

    /// `nfc_close`. Sends the reader to standby (InRelease, field off, PowerDown where
    /// the driver does so) and releases the port.
    static func close(_ device: LibNFCDeviceHandle) {
        nfc_close(device.pointer)
    }

    /// `nfc_abort_command`: the one call made from another thread, to end a blocking wait.
    @discardableResult
    static func abortCommand(_ device: LibNFCDeviceHandle) -> Int32 {
        nfc_abort_command(device.pointer)
    }

    /// `nfc_initiator_init`: reader mode, field on, default settings.
    static func initiatorInit(_ device: LibNFCDeviceHandle) throws(LibNFCError) {
        try check(nfc_initiator_init(device.pointer), "nfc_initiator_init", device)
    }

    /// `nfc_idle`: InRelease, field off and, on a PN532, PowerDown.
    static func idle(_ device: LibNFCDeviceHandle) throws(LibNFCError) {
        try check(nfc_idle(device.pointer), "nfc_idle", device)
    }

    /// `nfc_device_set_property_bool`.
    static func setProperty(_ device: LibNFCDeviceHandle, _ property: LibNFCProperty, _ value: Bool) throws(LibNFCError)
    {
        try check(
            nfc_device_set_property_bool(device.pointer, property.cValue, value),
            "nfc_device_set_property_bool(\(property.cName))", device)
    }

    /// `nfc_device_set_property_int` for a timeout in milliseconds.
    static func setProperty(_ device: LibNFCDeviceHandle, _ property: LibNFCProperty, milliseconds: Int32)
        throws(LibNFCError)
    {
        try check(
            nfc_device_set_property_int(device.pointer, property.cValue, milliseconds),
            "nfc_device_set_property_int(\(property.cName))", device)
    }

    /// `nfc_initiator_select_passive_target` for ISO/IEC 14443-A at 106 kbit/s, optionally
    /// only the tag with `uid`. Returns nil when no tag answered.
    static func selectPassiveISO14443A(_ device: LibNFCDeviceHandle, uid: [UInt8]?) throws(LibNFCError)
        -> ISO14443ATarget?
    {
        var target = nfc_target()
        let modulation = nfc_modulation(nmt: NMT_ISO14443A, nbr: NBR_106)
        let result: Int32 =
            if let uid, !uid.isEmpty {
                uid.withUnsafeBufferPointer {
                    nfc_initiator_select_passive_target(device.pointer, modulation, $0.baseAddress, $0.count, &target)
                }
            } else {
                nfc_initiator_select_passive_target(device.pointer, modulation, nil, 0, &target)
            }
        let found = try check(result, "nfc_initiator_select_passive_target", device)
        return found > 0 ? iso14443A(target) : nil
    }

    /// `nfc_initiator_select_passive_target` for FeliCa at `bitRate` (212 or 424 kbit/s)
    /// with Polling's payload (`00 SC SC RC TSN`, without LEN). Nil when no card answered.
    static func selectPassiveFeliCa(_ device: LibNFCDeviceHandle, bitRate: Int, polling: [UInt8]) throws(LibNFCError)
        -> FeliCaTarget?
    {
        var target = nfc_target()
        let modulation = nfc_modulation(nmt: NMT_FELICA, nbr: bitRate == 424 ? NBR_424 : NBR_212)
        let result = polling.withUnsafeBufferPointer {
            nfc_initiator_select_passive_target(device.pointer, modulation, $0.baseAddress, $0.count, &target)
        }
        let found = try check(result, "nfc_initiator_select_passive_target", device)
        guard found > 0 else { return nil }
        var info = target.nti.nfi
        let idm = withUnsafeBytes(of: &info.abtId) { Array($0) }
        let pmm = withUnsafeBytes(of: &info.abtPad) { Array($0) }
        let code = withUnsafeBytes(of: &info.abtSysCode) { Array($0) }
        // libnfc copies the system code only from an answer that carries one (LEN 20).
        let withCode = info.szLen > ChipTables.felica.polling.responseLength
        return FeliCaTarget(
            idm: idm, pmm: pmm, systemCode: withCode ? UInt16(code[0]) << 8 | UInt16(code[1]) : nil, bitRate: bitRate)
    }

    /// `nfc_initiator_select_passive_target` for ISO/IEC 14443 Type B at 106 kbit/s with
    /// AFI 00 (every card): the PN53x sends REQB and ATTRIB. Nil when no card answered.
    static func selectPassiveISO14443B(_ device: LibNFCDeviceHandle) throws(LibNFCError) -> ISO14443BTarget? {
        var target = nfc_target()
        let modulation = nfc_modulation(nmt: NMT_ISO14443B, nbr: NBR_106)
        let afi = ChipTables.iso14443b.pn532.initiatorData
        let result = afi.withUnsafeBufferPointer {
            nfc_initiator_select_passive_target(device.pointer, modulation, $0.baseAddress, $0.count, &target)
        }
        let found = try check(result, "nfc_initiator_select_passive_target", device)
        guard found > 0 else { return nil }
        var info = target.nti.nbi
        return ISO14443BTarget(
            pupi: withUnsafeBytes(of: &info.abtPupi) { Array($0) },
            applicationData: withUnsafeBytes(of: &info.abtApplicationData) { Array($0) },
            protocolInfo: withUnsafeBytes(of: &info.abtProtocolInfo) { Array($0) })
    }

    /// `nfc_initiator_select_passive_target` for an ST25TB or SRx card (NMT_ISO14443B2SR):
    /// libnfc sets the chip to type B framing with CRC and easy framing off, then sends
    /// Initiate, Select and Get_UID. The UID, or nil when no card answered. (libnfc 1.8.0
    /// returns the UID's first byte as the count: a card whose UID starts with 00 is not
    /// found; assumption ST-4.)
    static func selectPassiveST25TB(_ device: LibNFCDeviceHandle) throws(LibNFCError) -> [UInt8]? {
        var target = nfc_target()
        let modulation = nfc_modulation(nmt: NMT_ISO14443B2SR, nbr: NBR_106)
        let result = nfc_initiator_select_passive_target(device.pointer, modulation, nil, 0, &target)
        let found = try check(result, "nfc_initiator_select_passive_target", device)
        guard found > 0 else { return nil }
        var info = target.nti.nsi
        return withUnsafeBytes(of: &info.abtUID) { Array($0) }
    }

    /// `nfc_initiator_select_passive_target` for a Jewel (NFC Forum Type 1) tag: the PN53x
    /// sends REQA and lists SENS_RES and the JEWELID. Nil when no tag answered.
    static func selectPassiveJewel(_ device: LibNFCDeviceHandle) throws(LibNFCError) -> (
        sensRes: [UInt8], jewelID: [UInt8]
    )? {
        var target = nfc_target()
        let modulation = nfc_modulation(nmt: NMT_JEWEL, nbr: NBR_106)
        let result = nfc_initiator_select_passive_target(device.pointer, modulation, nil, 0, &target)
        let found = try check(result, "nfc_initiator_select_passive_target", device)
        guard found > 0 else { return nil }
        var info = target.nti.nji
        return (
            withUnsafeBytes(of: &info.btSensRes) { Array($0) }, withUnsafeBytes(of: &info.btId) { Array($0) }
        )
    }

    /// `nfc_initiator_list_passive_targets` for ISO/IEC 14443-A: up to `maximum` tags, each
    /// selected then deselected in turn. libnfc hides a failing select behind "no more tags",
    /// so the device's last error is checked when the list comes back short.
    static func listPassiveISO14443A(_ device: LibNFCDeviceHandle, maximum: Int) throws(LibNFCError)
        -> [ISO14443ATarget]
    {
        let count = max(1, maximum)
        var targets = [nfc_target](repeating: nfc_target(), count: count)
        let modulation = nfc_modulation(nmt: NMT_ISO14443A, nbr: NBR_106)
        let result = targets.withUnsafeMutableBufferPointer {
            nfc_initiator_list_passive_targets(device.pointer, modulation, $0.baseAddress, count)
        }
        let found = Int(try check(result, "nfc_initiator_list_passive_targets", device))
        if found < count {
            let last = nfc_device_get_last_error(device.pointer)
            if last < 0, LibNFCError.Code(rawValue: last).meansReaderLost {
                throw error(last, "nfc_initiator_list_passive_targets", device)
            }
        }
        return targets.prefix(min(found, count)).map(iso14443A)
    }

    /// `nfc_initiator_poll_target` for ISO/IEC 14443-A at 106 kbit/s, one poll of one period
    /// (150 ms when the field is empty). On a PN532 this is a single InAutoPoll, which
    /// activates up to two tags: the count comes back with the tag left selected (the
    /// second when there are two); an empty field is a count of 0, an error is the reader's.
    /// Other chips poll by single selects and never count two.
    static func pollPassiveISO14443A(_ device: LibNFCDeviceHandle) throws(LibNFCError) -> (
        count: Int, selected: ISO14443ATarget?
    ) {
        var target = nfc_target()
        var modulation = nfc_modulation(nmt: NMT_ISO14443A, nbr: NBR_106)
        let result = nfc_initiator_poll_target(device.pointer, &modulation, 1, 1, 1, &target)
        let count = Int(try check(result, "nfc_initiator_poll_target", device))
        return (count, count > 0 ? iso14443A(target) : nil)
    }

    /// `nfc_initiator_deselect_target` (InDeselect).
    static func deselectTarget(_ device: LibNFCDeviceHandle) throws(LibNFCError) {
        try check(nfc_initiator_deselect_target(device.pointer), "nfc_initiator_deselect_target", device)
    }

    /// `nfc_initiator_target_is_present` for the selected target. Returns the raw outcome:
    /// nil when present, otherwise the error libnfc gave (the caller decides what "gone" is).
    static func targetIsPresent(_ device: LibNFCDeviceHandle) -> LibNFCError? {
        let result = nfc_initiator_target_is_present(device.pointer, nil)
        return result < 0 ? error(result, "nfc_initiator_target_is_present", device) : nil
    }

    /// `nfc_initiator_transceive_bytes`: send `command`, return the answer (at most
    /// `capacity` bytes). Easy framing decides InDataExchange or InCommunicateThru.
    static func transceiveBytes(
        _ device: LibNFCDeviceHandle, _ command: [UInt8], capacity: Int,
        timeoutMilliseconds: Int32
    ) throws(LibNFCError) -> [UInt8] {
        var answer = [UInt8](repeating: 0, count: max(1, capacity))
        let result = command.withUnsafeBufferPointer { tx in
            answer.withUnsafeMutableBufferPointer { rx in
                nfc_initiator_transceive_bytes(
                    device.pointer, tx.baseAddress, tx.count, rx.baseAddress, rx.count, timeoutMilliseconds)
            }
        }
        let length = Int(try check(result, "nfc_initiator_transceive_bytes", device))
        return Array(answer.prefix(min(length, answer.count)))
    }

    /// `nfc_initiator_transceive_bits` with whole bytes out and parity by the chip: the
    /// answer with its exact bit count, so a 4-bit ACK / NAK is told apart from a byte.
    static func transceiveBits(
        _ device: LibNFCDeviceHandle, _ command: [UInt8],
        capacity: Int
    ) throws(LibNFCError) -> (bytes: [UInt8], bitCount: Int) {
        var answer = [UInt8](repeating: 0, count: max(1, capacity))
        let result = command.withUnsafeBufferPointer { tx in
            answer.withUnsafeMutableBufferPointer { rx in
                nfc_initiator_transceive_bits(
                    device.pointer, tx.baseAddress, tx.count * 8, nil, rx.baseAddress, rx.count, nil)
            }
        }
        let bits = Int(try check(result, "nfc_initiator_transceive_bits", device))
        let bytes = min((bits + 7) / 8, answer.count)
        return (Array(answer.prefix(bytes)), bits)
    }

    /// `nfc_device_get_name`, such as `pn532_uart:/dev/pts/3 - PN532 v1.6`.
    static func name(_ device: LibNFCDeviceHandle) -> String {
        String(cString: nfc_device_get_name(device.pointer))
    }

    /// `nfc_device_get_connstring`.
    static func connectionString(_ device: LibNFCDeviceHandle) -> String {
        String(cString: nfc_device_get_connstring(device.pointer))
    }

    /// `nfc_device_get_information_about`: libnfc's text about the reader (a `chip:` line
    /// with the firmware, modulations, baud rates). Talks to the reader.
    static func information(_ device: LibNFCDeviceHandle) throws(LibNFCError) -> String {
        var buffer: UnsafeMutablePointer<CChar>?
        try check(nfc_device_get_information_about(device.pointer, &buffer), "nfc_device_get_information_about", device)
        guard let buffer else { return "" }
        defer { nfc_free(buffer) }
        return String(cString: buffer)
    }

    /// `nfc_device_get_supported_modulation` in initiator mode.
    static func supportedModulations(_ device: LibNFCDeviceHandle) throws(LibNFCError) -> [Modulation] {
        var list: UnsafePointer<nfc_modulation_type>?
        try check(
            nfc_device_get_supported_modulation(device.pointer, N_INITIATOR, &list),
            "nfc_device_get_supported_modulation", device)
        guard let list else { return [] }
        var modulations: [Modulation] = []
        var index = 0
        // libnfc ends the list with 0; NMT_END_ENUM bounds it in case a driver forgets.
        while index <= Int(NMT_END_ENUM.rawValue), list[index].rawValue != 0 {
            if let modulation = modulation(list[index]) { modulations.append(modulation) }
            index += 1
        }
        return modulations
    }

    // MARK: - Return codes

    /// Throws the ``LibNFCError`` for a negative libnfc result; returns the result otherwise.
    @discardableResult
    static func check(_ result: Int32, _ operation: String, _ device: LibNFCDeviceHandle) throws(LibNFCError) -> Int32 {
        if result < 0 { throw error(result, operation, device) }
        return result
    }

    /// The ``LibNFCError`` for a negative libnfc result, with `nfc_strerror`'s text.
    static func error(_ result: Int32, _ operation: String, _ device: LibNFCDeviceHandle) -> LibNFCError {
        let text = nfc_strerror(device.pointer).map { String(cString: $0) } ?? ""
        let code = LibNFCError.Code(rawValue: result)
        return LibNFCError(code: code, operation: operation, message: text.isEmpty ? "\(code)" : text)
    }

    // MARK: - Conversions

    private static func iso14443A(_ target: nfc_target) -> ISO14443ATarget {
        var info = target.nti.nai
        let uidLength = min(Int(info.szUidLen), MemoryLayout.size(ofValue: info.abtUid))
        let atsLength = min(Int(info.szAtsLen), MemoryLayout.size(ofValue: info.abtAts))
        let uid = withUnsafeBytes(of: &info.abtUid) { Array($0.prefix(uidLength)) }
        let atqa = withUnsafeBytes(of: &info.abtAtqa) { Array($0) }
        let ats = withUnsafeBytes(of: &info.abtAts) { Array($0.prefix(atsLength)) }
        return ISO14443ATarget(uid: uid, atqa: atqa, sak: info.btSak, ats: ats)
    }

    private static func modulation(_ type: nfc_modulation_type) -> Modulation? {
        switch type {
        case NMT_ISO14443A: .iso14443A
        case NMT_JEWEL: .jewel
        case NMT_ISO14443B: .iso14443B
        case NMT_ISO14443BI: .iso14443BPrime
        case NMT_ISO14443B2SR: .iso14443B2SR
        case NMT_ISO14443B2CT: .iso14443B2CT
        case NMT_FELICA: .felica
        case NMT_DEP: .dep
        case NMT_BARCODE: .barcode
        case NMT_ISO14443BICLASS: .iso14443BiClass
        default: nil
        }
    }
}
