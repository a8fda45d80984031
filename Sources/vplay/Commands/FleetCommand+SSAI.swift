import AdSession
import ArgumentParser
import Foundation
import Primitives

extension FleetCommand {
    /// `fleet --ssai compare`: the same fleet (seed, mix, scenarios) played client-side, then with vplay as the
    /// stitcher, each against its own oracle (and sink), and compared event by event: how many beacons each side sent
    /// (and the sink received), how many views the stitcher counted that no one saw, how far it ran ahead. Exit 1
    /// when either fleet's checks fail.
    func runComparison() async throws {
        let started = LiveTools.wallTime(), wall = LiveTools.monotonicClock(), startedAt = wall.now
        let client = fleetConfiguration()
        var server = client
        server.session.serverSide = serverSide.insertion
        let keys = rewardCallback.keysOnce(seed: client.session.seed)
        let outputs = fleetOutputs + tag.outputs + rewardCallback.outputs
        let bar = FleetProgressBar()
        let signals = SignalWatch()
        let fleets = Task { () -> [Result<FleetReport, FleetFailure>] in
            var results: [Result<FleetReport, FleetFailure>] = []
            for configuration in [client, server] where !Task.isCancelled {
                results.append(await FleetRunner(configuration: configuration)
                    .run(onProgress: { bar.draw($0) }, admitMedia: { RunCommand.mediaClash($0, outputs: outputs) ?? keys.write() }))
            }
            return results
        }
        signals.onFirst { fleets.cancel() }
        let results = await fleets.value
        bar.clear()
        if let keyFailure = keys.write() { StandardStreams.warn(keyFailure) }
        if let signal = signals.received { throw ExitCode(128 + signal) }
        let reports = try results.map { result -> FleetReport in
            switch result {
            case let .success(report): return report
            case let .failure(failure) where failure.error.kind == .usage: throw ValidationError(failure.error.message)
            case let .failure(failure):
                StandardStreams.fail("the fleet cannot play: VAST \(failure.error.code): \(failure.error.message)")
                throw ExitCode(failure.error.kind == .ad ? ExitCode.adError.rawValue : ExitCode.mediaError.rawValue)
            }
        }
        let comparison = SSAIComparison(client: reports[0], server: reports[1])
        let document = try comparison.json()
        var failures = FleetReport.write(document, to: report)
        if let junit {
            let cases = JUnitReport.fleetCases(reports[0]).map { $0.prefixed("client: ") } + JUnitReport.fleetCases(reports[1]).map { $0.prefixed("server: ") }
            let suite = JUnitReport.Suite(name: "fleet --ssai compare \(tag.vast)", command: "fleet", subject: tag.vast, cases: cases, started: started,
                                          hostname: ProcessInfo.processInfo.hostName, seconds: startedAt.duration(to: wall.now).seconds,
                                          properties: [("tag", tag.vast), ("sessions", "\(sessions)"), ("seed", "\(client.session.seed)"), ("vplay", VPlayVersion.current)])
            do { try OutputFile.write(JUnitReport.xml(suite), to: junit, option: "--junit") } catch { failures.append("\(error)") }
        }
        if json { StandardStreams.print(String(decoding: document, as: UTF8.self)) } else { StandardStreams.say(comparison.text) }
        let holds = reports.allSatisfy { $0.checks.sentAsExpected && $0.checks.receivedAsSent != false && $0.checks.deviceFields != false }
        try CommandOutputs.exit(holds ? 0 : ExitCode.expectationFailed.rawValue, failures: failures, signalled: false,
                                reason: "a fleet did not send what its oracle expected, or its sink did not receive what it sent")
    }
}
