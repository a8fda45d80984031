import Foundation

extension VMAPFleetReport {
    /// Shard reports of one VMAP fleet combined into the report of the whole: each break's fleet reports merged as a
    /// tag fleet's are (`FleetReport.merge`); the schedule, reach and outcomes, which every shard works out alike, must
    /// agree. With every shard, the breaks' counts equal an unsharded run's.
    public static func merge(_ reports: [VMAPFleetReport]) throws(FleetReport.MergeError) -> VMAPFleetReport {
        guard var merged = reports.first else { throw FleetReport.MergeError(description: "no reports to merge") }
        for report in reports.dropFirst() {
            guard report.tag == merged.tag, report.sessions == merged.sessions, report.seed == merged.seed, report.mix == merged.mix,
                  report.watchMix == merged.watchMix, report.contentDuration == merged.contentDuration, report.shardCount == merged.shardCount,
                  report.error == merged.error,
                  report.breaks.map(\.schedule) == merged.breaks.map(\.schedule) else {
                throw FleetReport.MergeError(description: "the reports are not shards of one VMAP fleet (document, viewers, seed, mixes, content, shard count and breaks must agree)")
            }
            let twice = Set(report.shards).intersection(merged.shards)
            guard twice.isEmpty else { throw FleetReport.MergeError(description: "shard \(twice.sorted().map(String.init).joined(separator: ", ")) is given twice") }
            merged.shards = (merged.shards + report.shards).sorted()
            merged.seconds = max(merged.seconds, report.seconds)
            for index in merged.breaks.indices {
                let theirs = report.breaks[index], mine = merged.breaks[index]
                // A shard stopped by `--abort-on-fail` did not get to its later breaks; the others may have.
                let aborted = mine.outcome == "aborted" || theirs.outcome == "aborted"
                guard aborted || (mine.outcome == theirs.outcome && mine.error == theirs.error) else {
                    throw FleetReport.MergeError(description: "break \(theirs.number) is \(mine.outcome) in one shard and \(theirs.outcome) in another")
                }
                switch (mine.report, theirs.report) {
                case let (ours?, other?): merged.breaks[index].report = try FleetReport.merge([ours, other])
                case (nil, let other?): merged.breaks[index].report = other
                case (_?, nil), (nil, nil): break
                }
                if aborted { merged.breaks[index].outcome = "aborted" }
            }
        }
        let missing = Set(0..<merged.shardCount).subtracting(merged.shards).sorted()
        merged.missingShards = missing.isEmpty ? nil : missing
        return merged
    }
}

extension VMAPFleetReport.Break {
    /// What every shard works out alike: where the break falls and who reaches it.
    var schedule: [String] {
        ["\(number)", "\(adBreak)", "\(occurrence)", timeOffset, "\(contentTime)", "\(position)", "\(reach)"]
    }
}
