import Foundation
import Histogram
import SQLite

/// `--results` files read back: the report regenerated from their rows (one run's, or the shards' of one fleet), and
/// shards' files merged into one (`vplay merge`).
public enum FleetResultsFile {
    /// The report of the fleet whose rows `paths` hold: each file's stored report merged (`FleetReport.merge`: what
    /// the rows cannot say, as the run, the oracle's expectations and the machine's figures), its population and
    /// latency counted again from the rows (sessions, events, beacon attempts, hits at the sink).
    public static func report(from paths: [String]) throws(SQLiteError) -> FleetReport {
        let connections = try paths.map { path throws(SQLiteError) in try open(path) }
        var stored: [FleetReport] = []
        for connection in connections {
            guard let json = try connection.query("SELECT value FROM run WHERE key = 'report'").first?.first?.string,
                  let report = try? JSONDecoder().decode(FleetReport.self, from: Data(json.utf8)) else {
                throw SQLiteError("\(connection.path): its run has no report (the fleet did not finish writing it)")
            }
            stored.append(report)
        }
        var report: FleetReport
        do { report = try FleetReport.merge(stored) } catch { throw SQLiteError(error.description) }
        var counts = FleetResultsCounts(template: report.population)
        for connection in connections { try counts.add(connection) }
        report.population = counts.population(networks: report.population.networks != nil, serverSide: report.population.serverSide)
        report.performance.latency = FleetReport.latency(of: counts.latency)
        let deviceFields = report.checks.deviceFields
        report.checks = FleetReport.checks(of: report.population)
        report.checks.deviceFields = deviceFields
        return report
    }

    /// Writes the rows of every file of `paths` into a new database at `output`, with `report` (theirs merged) as its
    /// run's report.
    public static func merge(_ paths: [String], into output: String, report: FleetReport) throws(SQLiteError) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: output + suffix) }
        let connection = try SQLiteConnection(path: output)
        try connection.execute(FleetResults.schema)
        for path in paths {
            try connection.query("ATTACH DATABASE ? AS shard", [.text(path)])
            try connection.execute("""
                BEGIN;
                INSERT INTO sessions SELECT * FROM shard.sessions;
                INSERT INTO events SELECT * FROM shard.events;
                INSERT INTO beacons SELECT * FROM shard.beacons;
                INSERT INTO received SELECT * FROM shard.received;
                COMMIT;
                DETACH DATABASE shard;
                """)
        }
        try FleetResults.writeEnd(report, to: connection)
        connection.close()
    }

    /// A results file, read-only, of this schema.
    static func open(_ path: String) throws(SQLiteError) -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path, create: false, readOnly: true)
        let version = (try? connection.query("SELECT value FROM run WHERE key = 'schema'"))?.first?.first?.string
        guard version == "1" else { throw SQLiteError("\(path): not a vplay fleet results file (schema 1)") }
        return connection
    }
}
