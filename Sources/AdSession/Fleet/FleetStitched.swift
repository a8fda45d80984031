/// Server-side mode in a fleet (`fleet --ssai server`): for one stitched event over every session, how often the
/// stitcher fired it, how often the viewer never got there, and how far it ran ahead of the viewer.
public struct FleetStitched: Sendable, Equatable, Codable {
    /// Times the stitcher fired it.
    public var fired = 0
    /// Of those, times the viewer never reached its point: a view counted that no one saw.
    public var unseen = 0
    /// Sum of the leads (client − server, seconds) over the times the viewer got there.
    public var leadTotal = 0.0
    /// The largest lead, seconds.
    public var maxLead = 0.0
    /// leadTotal over the times the viewer got there (0 when it never did); derived, written in the JSON beside them.
    public var meanLead: Double { fired > unseen ? leadTotal / Double(fired - unseen) : 0 }

    public init() {}

    private enum CodingKeys: String, CodingKey { case fired, unseen, leadTotal, maxLead, meanLead }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        fired = try container.decode(Int.self, forKey: .fired)
        unseen = try container.decode(Int.self, forKey: .unseen)
        leadTotal = try container.decode(Double.self, forKey: .leadTotal)
        maxLead = try container.decode(Double.self, forKey: .maxLead)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(fired, forKey: .fired)
        try container.encode(unseen, forKey: .unseen)
        try container.encode(leadTotal, forKey: .leadTotal)
        try container.encode(maxLead, forKey: .maxLead)
        try container.encode(meanLead, forKey: .meanLead)
    }

    /// Adds one session's timing of the event.
    mutating func add(_ timing: ServerSideReport.Timing) {
        fired += 1
        guard let lead = timing.lead else {
            unseen += 1
            return
        }
        leadTotal += lead.seconds
        maxLead = max(maxLead, lead.seconds)
    }

    /// Adds another count of the same event (another shard's, another hold's).
    public mutating func add(_ other: FleetStitched) {
        fired += other.fired
        unseen += other.unseen
        leadTotal += other.leadTotal
        maxLead = max(maxLead, other.maxLead)
    }

    /// The name a stitched event is reported under: its name, a progress event's with its offset (`progress@2.000`).
    static func name(_ timing: ServerSideReport.Timing) -> String {
        timing.offset.map { "\(timing.event)@\(String(format: "%.3f", $0.seconds))" } ?? timing.event
    }
}
