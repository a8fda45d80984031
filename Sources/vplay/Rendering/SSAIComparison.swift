import AdSession
import Foundation

/// `fleet --ssai compare`: the same viewers counted by the player and by the stitcher, event by event.
struct SSAIComparison {
    let client: FleetReport
    let server: FleetReport

    /// One event on both sides.
    struct Row {
        var event: String
        var clientSent: Int
        var clientReceived: Int?
        var serverSent: Int
        var serverReceived: Int?
        /// The stitcher's own counts for it: fired, unseen, mean and largest lead (absent for an event it never times).
        var stitched: FleetStitched?
    }

    /// Every event either side sent a beacon for, in the order a play meets them (others after, by name).
    var rows: [Row] {
        let order = ["impression", "creativeView", "start", "progress", "firstQuartile", "midpoint", "thirdQuartile", "complete"]
        func sums(_ report: FleetReport) -> [String: (sent: Int, received: Int?)] {
            var sums: [String: (sent: Int, received: Int?)] = [:]
            for beacon in report.population.beacons {
                let old = sums[beacon.event] ?? (0, nil)
                sums[beacon.event] = (old.sent + beacon.sent, beacon.received.map { (old.received ?? 0) + $0 } ?? old.received)
            }
            return sums
        }
        let (a, b) = (sums(client), sums(server))
        var stitched: [String: FleetStitched] = [:]
        for (name, value) in server.population.serverSide ?? [:] {
            stitched[String(name.split(separator: "@")[0]), default: FleetStitched()].add(value)
        }
        let events = Set(a.keys).union(b.keys).sorted { lhs, rhs in
            (order.firstIndex(of: lhs) ?? order.count, lhs) < (order.firstIndex(of: rhs) ?? order.count, rhs)
        }
        return events.map { event in
            Row(event: event, clientSent: a[event]?.sent ?? 0, clientReceived: a[event]?.received, serverSent: b[event]?.sent ?? 0,
                serverReceived: b[event]?.received, stitched: stitched[event])
        }
    }

    /// The comparison as JSON: both fleets' whole reports and the rows (`schemas/fleet-ssai.schema.json`).
    func json() throws -> Data {
        func object(_ report: FleetReport) throws -> Any { try JSONSerialization.jsonObject(with: try report.json()) }
        let rows: [[String: Any]] = rows.map { row in
            var object: [String: Any] = ["event": row.event, "clientSent": row.clientSent, "serverSent": row.serverSent,
                                         "clientReceived": row.clientReceived as Any? ?? NSNull(), "serverReceived": row.serverReceived as Any? ?? NSNull()]
            object["unseen"] = row.stitched.map { $0.unseen as Any } ?? NSNull()
            object["meanLead"] = row.stitched.map { $0.meanLead as Any } ?? NSNull()
            object["maxLead"] = row.stitched.map { $0.maxLead as Any } ?? NSNull()
            return object
        }
        let document: [String: Any] = ["kind": "fleetSSAICompare", "client": try object(client), "server": try object(server), "events": rows]
        return try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// The text summary: a row an event, then each fleet's checks.
    var text: String {
        var table = [["event", "client sent", "server sent", "server − client", "unseen", "mean lead", "max lead"]]
        for row in rows {
            table.append([row.event, "\(row.clientSent)" + (row.clientReceived.map { " (\($0) recv)" } ?? ""),
                          "\(row.serverSent)" + (row.serverReceived.map { " (\($0) recv)" } ?? ""), String(format: "%+d", row.serverSent - row.clientSent),
                          row.stitched.map { "\($0.unseen)" } ?? "-", row.stitched.map { String(format: "%.3f s", $0.meanLead) } ?? "-",
                          row.stitched.map { String(format: "%.3f s", $0.maxLead) } ?? "-"])
        }
        let widths = (0..<7).map { column in table.map { $0[column].count }.max() ?? 0 }
        var lines = ["fleet --ssai compare: \(client.fleet.sessions) viewers, played by the player and by the stitcher"]
        lines += table.map { row in (0..<7).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ") }
        for (name, report) in [("client", client), ("server", server)] {
            var received = report.checks.receivedAsSent.map { $0 ? ", the sink received every beacon sent" : ", the sink did NOT receive every beacon sent" } ?? ""
            if let device = report.checks.deviceFields { received += device ? ", every hit with the device's X-Device-* fields" : ", a hit WITHOUT the device's X-Device-* fields" }
            lines.append("\(name): \(report.checks.sentAsExpected ? "sent what its oracle expected" : "did NOT send what its oracle expected")\(received)")
        }
        return lines.joined(separator: "\n")
    }
}
