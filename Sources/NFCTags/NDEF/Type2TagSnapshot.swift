import NDEF
import NFCChips

/// What one pass of reads found on a Type 2 tag: the memory image, the CC, the TLV walk,
/// lock bits and password configuration. Pure: evaluating it sends nothing.
struct Type2TagSnapshot: Sendable {
    /// Why writes are refused, if they are.
    enum WriteBlock: Sendable, Equatable {
        case capabilityContainer(UInt8)
        case staticLock(page: Int)
        case dynamicLock(page: Int)
        case password(auth0: Int)
    }

    var profile: Type2TagProfile
    var mapping: Type2Mapping
    /// The memory image by byte address (unread bytes are 0).
    var memory: [UInt8]
    /// The CC, or the reason there is none.
    var capabilityContainer: Result<Type2CapabilityContainerPage, NDEFTagError>
    /// The TLV walk (when the CC is valid).
    var scan: Type2TLVScan?
    /// Whether the configuration pages could be read (a NAK means PROT covers them).
    var configurationReadable: Bool
    /// Whether the caller authenticated with the password (PWD_AUTH) on this connection:
    /// then AUTH0 inside the data area does not make it read-only.
    var passwordAuthenticated = false
    /// The data-area bytes from this address on were not read (they read as 0 in
    /// ``memory``); `nil` when the whole data area was.
    var knownEnd: Int?

    /// With the configuration unreadable: a page read to learn whether PROT covers it, and
    /// whether it answered. AUTH0 protects from its page to the end of memory, so a page
    /// that answers lies below it with every page before it; one that NAKs lies at or after it.
    var passwordProbe: (page: Int, readable: Bool)?

    /// Whether every byte of `page` was read.
    func isKnown(page: Int) -> Bool {
        guard let knownEnd else { return true }
        return (page + 1) * profile.pageSize <= knownEnd
    }

    /// The data-area pages (inside the user pages).
    var dataPages: ClosedRange<Int>? {
        guard let scan else { return nil }
        let first = scan.area.start / profile.pageSize
        let last = (scan.area.end - 1) / profile.pageSize
        return first <= last ? first...last : nil
    }

    /// The first reason a write to the data area would be refused, or `nil`.
    var writeBlock: WriteBlock? {
        guard case .success(let cc) = capabilityContainer, let pages = dataPages else { return nil }
        if cc.writeAccess != mapping.capabilityContainer.writeAccessGranted {
            return .capabilityContainer(cc.accessByte)
        }
        let lockAddress = profile.staticLockPage * profile.pageSize + profile.staticLockByte
        let lockWord = Int(memory[lockAddress]) | Int(memory[lockAddress + 1]) << 8
        for page in pages {
            if let bit = mapping.staticLock.lockBit(forPage: page), lockWord & (1 << bit) != 0 {
                return .staticLock(page: page)
            }
        }
        if let dynamic = profile.dynamicLock {
            for page in pages {
                if let bit = dynamic.lockBit(forPage: page),
                    memory[dynamic.page * profile.pageSize + bit.byte] & bit.mask != 0
                {
                    return .dynamicLock(page: page)
                }
            }
        }
        if let protection = profile.protection, !passwordAuthenticated {
            if configurationReadable {
                let auth0 = Int(memory[protection.auth0Page * profile.pageSize + protection.auth0Byte])
                if auth0 <= pages.upperBound { return .password(auth0: auth0) }
            } else if let probe = passwordProbe, !probe.readable, probe.page <= pages.upperBound {
                // AUTH0 is at or before the probed page.
                return .password(auth0: probe.page)
            }
        }
        return nil
    }

    /// The largest message that fits from the NDEF TLV position.
    var capacity: Int {
        guard let scan, let start = scan.insertionAddress else { return 0 }
        let available = scan.area.availableBytes(from: start)
        let short = min(available - mapping.tlvHeaderLength(shortForm: true), mapping.shortLengthMaximum)
        let long = min(available - mapping.tlvHeaderLength(shortForm: false), mapping.longLengthMaximum)
        return max(0, long > mapping.shortLengthMaximum ? long : short)
    }

    /// The status a reader reports.
    func status() throws(NDEFTagError) -> NDEFStatus {
        let cc: Type2CapabilityContainerPage
        switch capabilityContainer {
        case .success(let value): cc = value
        case .failure(.invalidCapabilityContainer(_, .notFormatted)):
            return NDEFStatus(availability: .notSupported, capacity: 0, length: 0)
        case .failure(let error): throw error
        }
        if cc.readAccess != mapping.capabilityContainer.readAccessGranted {
            throw .authenticationRequired(step: .readCapabilityContainer)
        }
        guard let scan else { return NDEFStatus(availability: .notSupported, capacity: 0, length: 0) }
        if let problem = scan.problem, problem.reason != .missingNDEFTLV {
            throw .invalidTLV(offset: problem.offset, reason: problem.reason)
        }
        return NDEFStatus(
            availability: writeBlock == nil ? .readWrite : .readOnly,
            capacity: capacity,
            length: scan.ndef?.length ?? 0
        )
    }

    /// The NDEF message bytes and the address of each one.
    func messageBytes() throws(NDEFTagError) -> (bytes: [UInt8], addresses: [Int]) {
        _ = try status()
        guard case .success = capabilityContainer, let scan else {
            throw .invalidCapabilityContainer(
                offset: profile.capabilityContainerPage * profile.pageSize,
                reason: .notFormatted(found: memory[profile.capabilityContainerPage * profile.pageSize]))
        }
        guard let ndef = scan.ndef else {
            let problem = scan.problem ?? (scan.area.end, .missingNDEFTLV)
            throw .invalidTLV(offset: problem.offset, reason: problem.reason)
        }
        guard ndef.length > 0, let last = ndef.lengthAddresses.last,
            let first = scan.area.streamAddress(after: last),
            let addresses = scan.area.streamAddresses(from: first, count: ndef.length)
        else { return ([], []) }
        return (addresses.map { memory[$0] }, addresses)
    }

    /// Whether the tag holds a well-formed NDEF TLV (empty or not) under a valid CC.
    var hasNDEF: Bool {
        guard case .success = capabilityContainer, let scan, scan.ndef != nil, scan.problem == nil else { return false }
        return true
    }
}

extension NDEFMessage {
    /// Decodes a message stored at `addresses` (one per byte); errors name the tag address.
    static func fromTagBytes(_ bytes: [UInt8], addresses: [Int]) throws(NDEFTagError) -> NDEFMessage {
        guard !bytes.isEmpty else { return NDEFMessage(records: []) }
        do {
            return try NDEFMessage(bytes: bytes)
        } catch {
            let address = error.offset < addresses.count ? addresses[error.offset] : (addresses.last ?? 0) + 1
            throw .invalidNDEF(offset: address, reason: error.reason)
        }
    }
}
