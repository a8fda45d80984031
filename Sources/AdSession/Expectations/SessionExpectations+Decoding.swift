/// Decoding that refuses keys it does not know, in the file and in each event and beacon entry, naming the key and
/// the ones allowed: a misspelt `event:` for `events:` must not turn a regression check into one that checks nothing.
extension SessionExpectations {
    private enum Keys: String, CodingKey, CaseIterable { case tolerance, events, beacons, reward, errorCode, ending, strict }

    public init(from decoder: any Decoder) throws {
        try KnownKeys.check(decoder, allowed: Keys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: Keys.self)
        self.init(
            tolerance: try container.decodeSecondsIfPresent(forKey: .tolerance),
            events: try container.decodeIfPresent([Event].self, forKey: .events),
            beacons: try container.decodeIfPresent([Beacon].self, forKey: .beacons),
            reward: try container.decodeIfPresent(Bool.self, forKey: .reward),
            errorCode: try container.decodeIfPresent(Int.self, forKey: .errorCode),
            ending: try container.decodeIfPresent(String.self, forKey: .ending),
            strict: try container.decodeIfPresent(Bool.self, forKey: .strict))
    }
}

extension SessionExpectations.Event {
    private enum Keys: String, CodingKey, CaseIterable { case name, occurrence, playhead, clock, tolerance, count, detail, ad, adBreak = "break" }

    public init(from decoder: any Decoder) throws {
        try KnownKeys.check(decoder, allowed: Keys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: Keys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name),
            occurrence: try container.decodeIfPresent(Int.self, forKey: .occurrence),
            playhead: try container.decodeSecondsIfPresent(forKey: .playhead),
            clock: try container.decodeSecondsIfPresent(forKey: .clock),
            tolerance: try container.decodeSecondsIfPresent(forKey: .tolerance),
            count: try container.decodeIfPresent(Int.self, forKey: .count),
            detail: try container.decodeIfPresent(String.self, forKey: .detail),
            ad: try container.decodeIfPresent(Int.self, forKey: .ad),
            adBreak: try container.decodeIfPresent(Int.self, forKey: .adBreak))
    }
}

extension SessionExpectations.Beacon {
    private enum Keys: String, CodingKey, CaseIterable { case event, url, template, source, count, delivered, ad, adBreak = "break" }

    public init(from decoder: any Decoder) throws {
        try KnownKeys.check(decoder, allowed: Keys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: Keys.self)
        self.init(
            event: try container.decodeIfPresent(String.self, forKey: .event),
            url: try container.decodeIfPresent(String.self, forKey: .url),
            template: try container.decodeIfPresent(String.self, forKey: .template),
            source: try container.decodeIfPresent(String.self, forKey: .source),
            count: try container.decodeIfPresent(Int.self, forKey: .count),
            delivered: try container.decodeIfPresent(Bool.self, forKey: .delivered),
            ad: try container.decodeIfPresent(Int.self, forKey: .ad),
            adBreak: try container.decodeIfPresent(Int.self, forKey: .adBreak))
    }
}

/// Checks that a keyed container holds only `allowed` keys.
enum KnownKeys {
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    static func check(_ decoder: any Decoder, allowed: [String]) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        for key in container.allKeys where !allowed.contains(key.stringValue) {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "unknown key '\(key.stringValue)' (known: \(allowed.joined(separator: ", ")))")
        }
    }
}

extension KeyedDecodingContainer {
    /// A time or tolerance in seconds, refused unless finite: YAML's `.nan` would make every comparison with it
    /// false, so an expectation at `playhead: .nan` would pass whatever happened, and `.inf` can be neither met nor
    /// printed.
    fileprivate func decodeSecondsIfPresent(forKey key: Key) throws -> Double? {
        guard let value = try decodeIfPresent(Double.self, forKey: key) else { return nil }
        guard value.isFinite else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "'\(key.stringValue)' must be a finite number of seconds, not \(value)")
        }
        return value
    }
}
