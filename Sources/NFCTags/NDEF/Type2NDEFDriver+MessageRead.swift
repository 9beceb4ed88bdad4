/// Reading only what a message needs: the benchmark found `readNDEF` reading the
/// configuration pages and the whole data area (872 bytes on NTAG216) for a 100-byte
/// message, 7.7× the physical floor.
extension Type2NDEFDriver {
    /// The snapshot a read needs, on chips with FAST_READ: the CC and the data area up to
    /// the end of the NDEF message, and nothing else — no lock or configuration pages, no
    /// bytes past the message. FAST_READ from the CC page (not READ, which rolls over
    /// silently at AUTH0 where FAST_READ NAKs), as much as a READ returns, and a READ's worth
    /// more while the TLVs before the message run past what was read; then, once the NDEF
    /// TLV's length is known, the rest of the message in as few frames as fit. Any TLV
    /// problem falls back to reading the whole data area, so errors are the full read's.
    /// `nil` on chips without FAST_READ (the caller takes the full snapshot).
    ///
    /// - Parameter firstPage: where the first read starts (a write starts at the static
    ///   lock page, two pages before the CC on Type 2 chips, to see the lock bits too).
    func readMessageSnapshot(from firstPage: Int? = nil) async throws(NDEFTagError) -> Type2TagSnapshot? {
        guard profile.fastRead != nil else { return nil }
        let pageSize = profile.pageSize
        let ccPage = profile.capabilityContainerPage
        let ccAddress = ccPage * pageSize
        let start = min(firstPage ?? ccPage, ccPage)
        var memory = [UInt8](repeating: 0, count: profile.pageCount * pageSize)
        // A READ's worth (four pages): the CC and the first TLV bytes.
        var readEnd = try await readData(start...min(start + 3, profile.lastUserPage), into: &memory) { _ in
            .readCapabilityContainer
        }
        let container: Type2CapabilityContainerPage
        do throws(NDEFTagError) {
            container = try Type2CapabilityContainerPage(
                bytes: Array(memory[ccAddress..<(ccAddress + pageSize)]),
                address: ccAddress, mapping: mapping)
        } catch {
            return snapshot(memory, capabilityContainer: .failure(error), scan: nil)
        }
        let area = Type2DataArea(
            start: mapping.dataAreaStartByte, end: mapping.dataAreaStartByte + container.dataAreaBytes)
        guard area.end <= (profile.lastUserPage + 1) * pageSize else {
            throw .invalidCapabilityContainer(offset: ccAddress + 2, reason: .invalidSize(container.dataAreaBytes))
        }
        while true {
            let scan = Type2TLVScan(
                memory: Array(memory.prefix(readEnd)), area: area, memorySize: memory.count, mapping: mapping)
            let wanted: Int
            if scan.readPastMemory {
                // The TLVs before the message (NULL padding, control TLVs) run past what was
                // read: a READ's worth more, then walk again. Reading the whole area instead
                // would meet pages that PROT protects behind a readable message.
                wanted = readEnd + 4 * pageSize
            } else if scan.problem == nil, let end = Self.messageEnd(scan) {
                // From the lock page (a status query, a write) one byte more: whether a
                // Terminator follows decides whether a write must write the page after the message.
                wanted = end + (firstPage == nil ? 0 : 1)
            } else {
                wanted = area.end  // a problem: read the whole area, scan again
            }
            if wanted <= readEnd || readEnd >= area.end {
                let final =
                    wanted <= readEnd
                    ? scan
                    : Type2TLVScan(memory: memory, area: area, memorySize: memory.count, mapping: mapping)
                return snapshot(
                    memory, capabilityContainer: .success(container), scan: final,
                    knownEnd: readEnd < area.end ? readEnd : nil)
            }
            let pages = (readEnd / pageSize)...((min(wanted, area.end) - 1) / pageSize)
            readEnd = try await readData(pages, into: &memory) { .readData(page: $0) }
        }
    }

    /// What a status query or a write reads, on chips with FAST_READ: from the static lock
    /// page the lock bytes, the CC and the TLVs as far as the message and one byte more
    /// (``readMessageSnapshot(from:)``), then the lock and configuration pages — not the
    /// rest of the data area.
    ///
    /// When PROT hides the configuration (AUTH0 unknown) and no password was given, one
    /// read of the page `probing` names tells whether the protected area reaches it
    /// (``Type2TagSnapshot/passwordProbe``). A NAK before the configuration, or a chip
    /// without FAST_READ, takes the full snapshot instead (its errors name the page).
    func readPartialSnapshot(probing probePage: (Type2TagSnapshot) -> Int?) async throws(NDEFTagError)
        -> Type2TagSnapshot
    {
        let partial: Type2TagSnapshot?
        do throws(NDEFTagError) {
            partial = try await readMessageSnapshot(from: profile.staticLockPage)
        } catch .authenticationRequired {
            return try await readSnapshot()
        }
        guard var snapshot = partial else { return try await readSnapshot() }
        snapshot.configurationReadable = try await readConfiguration(into: &snapshot.memory)
        if !snapshot.configurationReadable, !passwordAuthenticated, profile.protection != nil,
            let page = probePage(snapshot)
        {
            do throws(NDEFTagError) {
                _ = try await io.readPages(page...page) { .readData(page: $0) }
                snapshot.passwordProbe = (page, true)
            } catch .nak {
                snapshot.passwordProbe = (page, false)
            }
        }
        return snapshot
    }

    /// The byte address just past the NDEF message the scan found.
    private static func messageEnd(_ scan: Type2TLVScan) -> Int? {
        guard let ndef = scan.ndef, let last = ndef.lengthAddresses.last else { return nil }
        guard ndef.length > 0 else { return last + 1 }
        guard let first = scan.area.streamAddress(after: last),
            let addresses = scan.area.streamAddresses(from: first, count: ndef.length)
        else { return nil }
        return (addresses.last ?? last) + 1
    }

    /// FAST_READs `pages` into `memory`; returns the byte address past them. A NAK means
    /// the pages are read-protected.
    private func readData(
        _ pages: ClosedRange<Int>, into memory: inout [UInt8],
        step: @Sendable (Int) -> NDEFTagStep
    ) async throws(NDEFTagError) -> Int {
        let data: [UInt8]
        do throws(NDEFTagError) {
            data = try await io.readPages(pages, step: step)
        } catch .nak(_, let step) {
            throw .authenticationRequired(step: step)
        }
        let start = pages.lowerBound * profile.pageSize
        memory.replaceSubrange(start..<(start + data.count), with: data)
        return start + data.count
    }

    /// A snapshot of what was read; the lock and configuration pages were not, so they
    /// count as unknown (not readable) rather than as zeros.
    private func snapshot(
        _ memory: [UInt8], capabilityContainer: Result<Type2CapabilityContainerPage, NDEFTagError>,
        scan: Type2TLVScan?, knownEnd: Int? = nil
    ) -> Type2TagSnapshot {
        Type2TagSnapshot(
            profile: profile, mapping: mapping, memory: memory, capabilityContainer: capabilityContainer,
            scan: scan, configurationReadable: false, passwordAuthenticated: passwordAuthenticated,
            knownEnd: knownEnd)
    }
}
