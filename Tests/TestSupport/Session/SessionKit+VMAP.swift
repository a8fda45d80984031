import AdSession
import Foundation
import Primitives
import TrackingBeacons

extension SessionKit {
    /// Plays the VMAP document (or whatever `configuration.tag` turns out to be, with `.detect`) to its end on the
    /// kit's doubles: content and ads on a virtual clock, tags from memory, beacons recorded.
    public func runVMAP(_ configuration: SessionConfiguration, playback: VMAPPlayback = VMAPPlayback(), mode: VMAPSessionRunner.Mode = .vmap,
                        driving drive: (@Sendable (SessionDrive) async -> Void)? = nil) async -> SessionRun {
        let (environment, transport) = environment(configuration)
        let records = Locked<[SessionRecord]>([])
        async let driven: Void = drive?(SessionDrive(transport: transport, clock: networkClock, records: records)) ?? ()
        let summary = await VMAPSessionRunner(configuration: configuration, playback: playback, mode: mode, environment: environment).run { record in
            records.withLock { $0.append(record) }
        }
        await driven
        return SessionRun(summary: summary, records: records.withLock { $0 }, sent: transport.urls)
    }
}

extension SessionRun {
    /// A VMAP session's breaks, as each ended.
    public var breaks: [VMAPBreakReport] { records.compactMap { if case let .adBreak(report) = $0 { report } else { nil } } }
    /// The planned beacons of break `number` (its ads' and its own), in order.
    public func beacons(inBreak number: Int) -> [PlannedBeacon] { planned.filter { $0.adBreak == number } }
}

extension SessionKit {
    /// A VMAP fleet in process, on the kit's doubles.
    public func vmapFleet(_ configuration: FleetConfiguration, playback: VMAPPlayback = VMAPPlayback(), watchMix: WatchMix = .toTheEnd,
                          mode: VMAPSessionRunner.Mode = .vmap) async -> (VMAPFleetRunner.Outcome, sent: [String]) {
        let (environment, transport) = environment(configuration.session)
        let outcome = await VMAPFleetRunner(configuration: configuration, playback: playback, watchMix: watchMix, mode: mode, environment: environment).run()
        return (outcome, transport.urls)
    }
}
