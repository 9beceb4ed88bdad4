import NFCChips
import NFCTags

/// The `TagTransport` (NFCTags) of a tag selected on an ``NFCDevice``: tag protocols in
/// `NFCTags` talk to real (or emulated) tags through libnfc with it.
///
/// Standard framing is the reader's InDataExchange (CRC by the chip, ISO-DEP handled for
/// Type 4 tags). Raw framing is InCommunicateThru with CRC_A added and checked here, not
/// by the chip: a PN53x checking the CRC would report a 4-bit ACK / NAK as a CRC error,
/// and the caller wants its code.
///
/// ```swift
/// let target = try await device.waitForTarget(timeout: .seconds(10))
/// let transport = await DeviceTagTransport(device: device, target: target)
/// let answer = try await transport.transceive([0x30, 0x04], framing: .standard, timeout: .milliseconds(100))
/// ```
package struct DeviceTagTransport: TagTransport {
    /// The device the tag is selected on.
    package let device: NFCDevice
    /// The tag, as selection reported it.
    package let target: TagTarget

    /// The largest answer asked for in one exchange (FAST_READ is split to fit): the
    /// reader's frame limit (``NFCDevice/maximumTagFrame``), at most
    /// ``preferredExchangeLength``.
    package let maximumFrameLength: Int
    /// The longest command frame (without CRC_A) the reader carries in one exchange; a raw
    /// command longer than this is refused before anything is sent.
    package let maximumCommandLength: Int
    /// The longest tag answer the reader brings back in one exchange (an ACR122U 250 bytes,
    /// a PN532 on a UART 262): `datasheets/readers.json`.
    package let maximumAnswerLength: Int
    /// The FeliCa card, type B card or Type 1 tag, when the tag is one: it is selected again
    /// by a poll for it.
    package let card: NFCTarget?

    /// The most bytes asked of a tag in one exchange even when the reader carries more:
    /// 240 (60 pages of FAST_READ) fits every reader of the table (the ACR122U brings back
    /// 248 tag bytes, a PN532 on a UART 260) with room to spare.
    package static let preferredExchangeLength = 240

    /// A transport to `target`, which must be the tag selected on `device`, sized for the
    /// reader open on it (its frame limits from `datasheets/readers.json`).
    package init(device: NFCDevice, target: ISO14443ATarget) async {
        let frame = await device.maximumTagFrame
        self.init(
            device: device, target: target, maximumFrameLength: min(Self.preferredExchangeLength, frame),
            maximumCommandLength: await device.maximumTagCommandFrame,
            maximumAnswerLength: await device.maximumTagAnswer())
    }

    /// A transport to `target` with the given limits (for tests of smaller readers).
    package init(
        device: NFCDevice, target: ISO14443ATarget, maximumFrameLength: Int, maximumCommandLength: Int? = nil,
        maximumAnswerLength: Int? = nil
    ) {
        self.device = device
        self.target = TagTarget(target)
        self.maximumFrameLength = maximumFrameLength
        self.maximumCommandLength = maximumCommandLength ?? maximumFrameLength
        self.maximumAnswerLength = maximumAnswerLength ?? .max
        self.card = nil
    }

    /// A transport to the FeliCa card `card`, selected on `device`. Frames start with the
    /// FeliCa LEN byte; the reader adds preamble, sync and CRC.
    package init(device: NFCDevice, feliCa card: FeliCaTarget) async {
        await self.init(device: device, found: .feliCa(card))
    }

    /// A transport to the tag `found`, selected on `device`: to a FeliCa card, frames start
    /// with the FeliCa LEN byte; to a type B card they are APDUs the reader carries in
    /// ISO-DEP blocks; to a Type 1 tag, commands in the reader's short form.
    package init(device: NFCDevice, found: NFCTarget) async {
        self.device = device
        switch found {
        case .iso14443A(let tag):
            self.target = TagTarget(tag)
            self.card = nil
        case .feliCa(let card):
            self.target = TagTarget(
                feliCa: FeliCaPollingAnswer(
                    idm: card.idm, pmm: card.pmm,
                    requestData: card.systemCode.map { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } ?? []))
            self.card = found
        case .iso14443B(let card):
            self.target = TagTarget(typeB: card.atqb)
            self.card = found
        case .type1(let tag):
            self.target = TagTarget(type1JewelID: tag.jewelID, headerROM: tag.headerROM)
            self.card = found
        case .st25tb(let card):
            self.target = TagTarget(st25tbUID: card.uid)
            self.card = found
        }
        self.maximumFrameLength = min(Self.preferredExchangeLength, await device.maximumTagFrame)
        self.maximumCommandLength = await device.maximumTagCommandFrame
        self.maximumAnswerLength = await device.maximumTagAnswer()
    }

    /// Time for the host link and the reader chip on top of the tag's own answer time.
    ///
    /// The chip tables give how long a *tag* may take to answer (5 ms for a READ); libnfc
    /// uses the timeout for the whole exchange, serial line and reader chip included. A bare
    /// tag timeout expires while the reader is still sending the answer, and that late
    /// answer confuses the next command. The margin covers the reader, not the tag.
    package static let readerMargin: Duration = .milliseconds(150)

    /// Sends `frame` to the tag through the device: `.standard` as libnfc's easy framing,
    /// `.raw` with CRC_A added and checked here (on the host) so that 4-bit ACK / NAK
    /// answers arrive with their code. The device waits `tagTimeout` plus ``readerMargin``.
    package func transceive(_ frame: [UInt8], framing: TagFraming, timeout tagTimeout: Duration)
        async throws(TagTransportError) -> TagResponse
    {
        let timeout = tagTimeout + Self.readerMargin
        let response: TransceiveResponse
        do {
            switch framing {
            case _ where target.isST25TB:
                // No easy framing for ST's commands: raw type B frames, CRC_B by the chip.
                response = try await device.transceive(frame, framing: .rawBytes, timeout: timeout)
            case .standard:
                response = try await device.transceive(frame, framing: .easy, timeout: timeout)
            case .raw:
                response = try await device.transceive(
                    frame + ChipTables.crcA(frame), framing: .raw(crc: .byHost),
                    timeout: timeout)
            }
        } catch {
            throw TagTransportError(error)
        }
        if let code = response.shortFrameValue {
            return code == Self.ackCode ? .ack : .nak(code)
        }
        guard framing == .raw, !target.isST25TB else {
            return response.bytes.isEmpty ? .ack : .bytes(response.bytes)
        }
        let bytes = response.bytes
        guard bytes.count > 2, ChipTables.crcA(Array(bytes.dropLast(2))) == Array(bytes.suffix(2)) else {
            throw .transmission(reason: "CRC_A error in the answer \(bytes.hexString())")
        }
        return .bytes(Array(bytes.dropLast(2)))
    }

    /// The 4-bit ACK of Type 2 tags, from the tables.
    private static let ackCode: UInt8 = ChipTables.iso14443a.ack

    /// Selects the same UID again (after a NAK or a failed authentication the tag is IDLE);
    /// `tagLost` when it is no longer in the field. A random ID (`08…`) is new at every
    /// power-up: once the field was reset (a USB reader's alone check lists the field and
    /// resets it), the tag answers with another one, and the tag with a random ID in the
    /// field is taken — as the alone check itself does.
    package func reselect() async throws(TagTransportError) {
        if let card {
            let again: Bool
            do {
                again = try await device.reselect(card)
            } catch {
                throw TagTransportError(error)
            }
            if !again { throw .tagLost }
            return
        }
        var selected: ISO14443ATarget?
        do {
            selected = try await device.selectTarget(uid: target.uid)
            if selected == nil, ISO14443ATarget.isRandomUID(target.uid) {
                selected = try await device.selectRandomIDTarget()
            }
        } catch {
            throw TagTransportError(error)
        }
        if selected == nil { throw .tagLost }
    }

    /// MIFARE Classic authentication of `block` with a 6-byte key: the PN53x runs Crypto1
    /// itself, and the frames that follow to that sector are encrypted by the reader.
    package func authenticateClassic(block: UInt8, keyType: ClassicKeyType, key: [UInt8])
        async throws(TagTransportError)
    {
        // The PN53x runs Crypto1 itself: InDataExchange with the MIFARE AUTH command,
        // the key and the UID's last four bytes (UM0701 §7.3.8, libnfc's mifare_cmd).
        let name: CommandName = keyType == .a ? .authenticateKeyA : .authenticateKeyB
        guard let command = ChipTables.spec(for: .classic1k).command(name)?.code else {
            throw .reader(reason: "no \(name.rawValue) command in the MIFARE Classic table")
        }
        let uidBytes = ChipTables.classic.manufacturerBlock[.uid].length
        let frame = [command, block] + key + target.uid.suffix(uidBytes)
        _ = try await transceive(frame, framing: .standard, timeout: .milliseconds(100))
    }
}

extension TagTarget {
    /// The activation data of a selected ISO 14443-A target.
    init(_ target: ISO14443ATarget) {
        let atqa = target.atqa.count == 2 ? UInt16(target.atqa[0]) << 8 | UInt16(target.atqa[1]) : 0
        self.init(uid: target.uid, atqa: atqa, sak: target.sak, ats: target.ats.isEmpty ? nil : target.ats)
    }
}

extension TagTransportError {
    /// What a device error means for an exchange with a tag.
    init(_ error: NFCDeviceError) {
        switch error {
        case .connectionLost(let reason):
            self = .connectionLost(reason: reason.description)
        case .notConnected:
            self = .connectionLost(reason: "no reader is connected")
        case .cancelled:
            self = .cancelled
        case .timeout:
            self = .timeout
        case .noTargetSelected:
            self = .tagLost
        case .commandTooLong(let length, let maximum):
            self = .reader(reason: NFCDeviceError.commandTooLong(length: length, maximum: maximum).description)
        case .libnfc(let cause):
            switch cause.code {
            // The PN53x reports "no answer" (a timeout, a tag gone, a NAK in InDataExchange)
            // as an RF transmission error.
            case .rfTransmission, .timeout: self = .timeout
            case .targetReleased: self = .tagLost
            case .mifareAuthenticationFailed: self = .authenticationFailed
            case .operationAborted: self = .cancelled
            case .io, .noSuchDevice: self = .connectionLost(reason: cause.description)
            default: self = .reader(reason: cause.description)
            }
        default:
            self = .reader(reason: error.description)
        }
    }
}
