import Foundation

/// What a ``ProvisioningStation`` did with one tag.
///
/// Encoded as one flat JSON object, the line of a station's log: `time`, `station` (when
/// the station has a label), `uid` (hex), `chip`, `result`, `actions`, `ms`, `password`
/// (how the password came about, never the password), and for a failure `step`, `error`,
/// `state` and `reader_lost`.
public struct ProvisioningRecord: Sendable, Codable {
    /// The steps of provisioning.
    @nonexhaustive
    public enum Step: String, Sendable {
        case identify, write, verify, protect, lock
        /// An NTAG 424 DNA's SUN URL and SDM settings.
        case sunSetup = "sun-setup"
    }

    @nonexhaustive
    public enum Result: String, Sendable {
        /// Written, verified, and protected / locked as the plan asks.
        case ok
        /// A step failed; ``ProvisioningRecord/failure`` says which and what the tag holds.
        case failed
        /// Already provisioned: not touched.
        case skipped
    }

    /// Which step failed, why, and what the tag holds now.
    public struct Failure: Sendable {
        public var step: Step
        /// What went wrong, in words.
        public var message: String
        /// What the tag holds now, as a sentence.
        public var state: String
        /// The reader went away: the station tries the tag again once the reader is back.
        public var readerLost = false
        /// The tag left the field mid-step: the station tries it again when it comes back.
        public var tagLeft = false
        /// The session error behind the failure, when one (``NDEFSessionError`` or
        /// ``TagSessionError``); not encoded.
        public var error: (any Error)?

        package init(step: Step, message: String, state: String, error: (any Error)? = nil) {
            self.step = step
            self.message = message
            self.state = state
            self.error = error
        }
    }

    public var uid: [UInt8]
    /// The chip, once identified.
    public var chip: Chip?
    public var result: Result
    /// The steps completed, in order.
    public var actions: [Step]
    public var milliseconds: Int
    public var failure: Failure?
    public var time: Date
    /// The station's label.
    public var station: String?
    /// How the tag's password came about (`derived-v1` for a `TagPasswordDerivation`), never the password.
    public var password: String?

    package init(uid: [UInt8], chip: Chip? = nil, result: Result, actions: [Step] = [], milliseconds: Int = 0) {
        self.uid = uid
        self.chip = chip
        self.result = result
        self.actions = actions
        self.milliseconds = milliseconds
        self.time = Date()
    }

    private enum CodingKeys: String, CodingKey {
        case time, station, uid, chip, result, actions, ms, password, step, error, state
        case readerLost = "reader_lost"
        case tagLeft = "tag_left"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let uidText = try container.decode(String.self, forKey: .uid)
        guard let uid = HexBytes.decode(uidText) else {
            throw DecodingError.dataCorruptedError(forKey: .uid, in: container, debugDescription: "not hex")
        }
        self.uid = uid
        chip = try container.decodeIfPresent(String.self, forKey: .chip).flatMap(Chip.init(rawValue:))
        result = try Self.named(try container.decode(String.self, forKey: .result), key: .result, in: container)
        actions = try (container.decodeIfPresent([String].self, forKey: .actions) ?? []).map {
            try Self.named($0, key: .actions, in: container)
        }
        milliseconds = try container.decodeIfPresent(Int.self, forKey: .ms) ?? 0
        let timeText = try container.decodeIfPresent(String.self, forKey: .time)
        time = timeText.flatMap(Self.date(fromTimestamp:)) ?? Date(timeIntervalSince1970: 0)
        station = try container.decodeIfPresent(String.self, forKey: .station)
        password = try container.decodeIfPresent(String.self, forKey: .password)
        if let name = try container.decodeIfPresent(String.self, forKey: .step) {
            let step: Step = try Self.named(name, key: .step, in: container)
            var failure = Failure(
                step: step, message: try container.decodeIfPresent(String.self, forKey: .error) ?? "",
                state: try container.decodeIfPresent(String.self, forKey: .state) ?? "")
            failure.readerLost = try container.decodeIfPresent(Bool.self, forKey: .readerLost) ?? false
            failure.tagLeft = try container.decodeIfPresent(Bool.self, forKey: .tagLeft) ?? false
            self.failure = failure
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.timestamp(time), forKey: .time)
        try container.encodeIfPresent(station, forKey: .station)
        try container.encode(uid.hexString(), forKey: .uid)
        try container.encode(chip?.rawValue ?? "unknown", forKey: .chip)
        try container.encode(result.rawValue, forKey: .result)
        try container.encode(actions.map(\.rawValue), forKey: .actions)
        try container.encode(milliseconds, forKey: .ms)
        try container.encodeIfPresent(password, forKey: .password)
        if let failure {
            try container.encode(failure.step.rawValue, forKey: .step)
            try container.encode(failure.message, forKey: .error)
            try container.encode(failure.state, forKey: .state)
            if failure.readerLost { try container.encode(true, forKey: .readerLost) }
            if failure.tagLeft { try container.encode(true, forKey: .tagLeft) }
        }
    }

    /// The step or result a log line names (`ok`, `sun-setup`).
    private static func named<Name: RawRepresentable<String>>(
        _ name: String, key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>
    ) throws -> Name {
        guard let value = Name(rawValue: name) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "unknown \(name)")
        }
        return value
    }

    /// ISO 8601 in UTC with milliseconds: `2025-03-01T12:00:00.123Z`.
    package static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    private static func date(fromTimestamp text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
