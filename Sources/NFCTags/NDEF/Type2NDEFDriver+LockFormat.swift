extension Type2NDEFDriver {
    /// Carries out a lock plan and checks that every lock bit reads back set. The message
    /// is never touched, so any failure leaves it intact.
    func runLock(_ plan: Type2LockPlan) async throws(NDEFTagError) {
        for write in plan.writes {
            do throws(Type2PageIO.WriteFailure) {
                try await io.writePage(write.page, write.bytes)
            } catch {
                throw failure(error, step: write.step) { _ in .previousMessageIntact }
            }
        }
        var readBack: [Int: UInt8] = [:]
        for page in Set(plan.expectedBits.keys.map { $0 / profile.pageSize }).sorted() {
            let bytes: [UInt8]
            do throws(NDEFTagError) {
                bytes = try await io.readPages(page...page) { .verify(page: $0) }
            } catch {
                throw Self.verificationError(error, state: .previousMessageIntact)
            }
            for (index, byte) in bytes.enumerated() { readBack[page * profile.pageSize + index] = byte }
        }
        for (address, mask) in plan.expectedBits.sorted(by: { $0.key < $1.key })
        where (readBack[address] ?? 0) & mask != mask {
            throw .tagUpdateFailure(
                step: .verify(page: address / profile.pageSize), state: .previousMessageIntact,
                reason: .verificationMismatch(offset: address))
        }
    }

    /// Carries out a format plan and checks that the tag reads as an empty NDEF.
    func runFormat(_ plan: Type2FormatPlan) async throws(NDEFTagError) {
        let clears = plan.writes.first?.step.kind == .clearLength
        for (index, write) in plan.writes.enumerated() {
            do throws(Type2PageIO.WriteFailure) {
                try await io.writePage(write.page, write.bytes)
            } catch {
                throw failure(error, step: write.step) { mayHave in
                    Self.formatState(failedWrite: index, of: plan, clears: clears, mayHaveReachedTag: mayHave)
                }
            }
        }
        try await verify(plan.verifyPages, against: plan.finalMemory, state: .emptyMessage)
    }

    /// What a format that failed at write `index` left on the tag.
    static func formatState(
        failedWrite index: Int, of plan: Type2FormatPlan, clears: Bool, mayHaveReachedTag mayHave: Bool
    ) -> NDEFTagContentState {
        let write = plan.writes[index]
        if clears {
            if index == 0 { return mayHave ? .unknown : .previousMessageIntact }
            if write.step.kind == .writeCapabilityContainer { return mayHave ? .unknown : .emptyMessage }
            return .emptyMessage
        }
        if write.step.kind == .writeCapabilityContainer { return mayHave ? .unknown : .previousMessageIntact }
        return .previousMessageIntact
    }
}
