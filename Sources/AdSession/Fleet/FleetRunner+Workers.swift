import Primitives
import TrackingBeacons

extension FleetRunner {
    /// After an `--abort-on-fail` breach, how long the beacons already in flight may still be answered.
    static let abortDrain: Duration = .milliseconds(500)

    /// Plays every session of the shard, `concurrency` at once, until all have played, a signal cancels the caller,
    /// or `watch` sees a threshold breached for good.
    ///
    /// `concurrency` workers, each playing one session after another, the next index not yet taken (in index order,
    /// as slots free): no task per session, and no session's end waking a parent on another thread. Worker w runs on
    /// executor w mod n and sends through dispatcher w mod d (the same loop's, unless there are fewer dispatchers than
    /// loops: fewer requests in flight than loops). The workers are a task of their own, so a breach can cancel the
    /// sessions under way as a signal does.
    func playSessions(_ prepared: FleetAd, tally: FleetTally, dispatchers: [BeaconDispatcher], progress: FleetProgressReporter,
                      watch: FleetAbortWatch?) async {
        let configuration = self.configuration, environment = self.environment
        let session = configuration.session
        let executors = environment.sessionExecutors
        let wallStart = session.now ?? environment.wallClock()
        let facts = Self.scenarioFacts(of: prepared)
        let macros = BeaconPlanner.macros(for: session), identity = session.identity
        let indices = configuration.shard.indices(of: configuration.sessions)
        let sessions = indices.underestimatedCount
        let taken = Locked(indices.makeIterator())
        let workers = Task {
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<min(configuration.concurrency, sessions) {
                    let hold = worker % dispatchers.count, dispatcher = dispatchers[hold]
                    group.addTask(executorPreference: executors.isEmpty ? nil : executors[worker % executors.count]) {
                        // Interrupted: no new session starts (those under way end with the cancellation). A session
                        // starts once its room fits in its dispatcher's share (`FleetTally.admitSession`), and gives
                        // back what its beacons did not take when it ends.
                        while !Task.isCancelled {
                            let room = await tally.admitSession(hold: hold)
                            defer { tally.endSession(room) }
                            guard !Task.isCancelled, let index = taken.withLock({ $0.next() }) else { break }
                            tally.started(hold: hold)
                            let scenario = FleetScenario.draw(index: index, seed: session.seed, mix: configuration.mix, pod: facts)
                            let network = configuration.networkMix?.draw(index: index, seed: session.seed)
                            (room.session, room.network) = (index, network)
                            await Self.playOne(scenario, network: network, prepared: prepared, configuration: configuration, environment: environment,
                                               wallStart: wallStart, macros: macros, identity: identity, tally: tally, room: room, dispatcher: dispatcher)
                            progress.report(tally)
                            if watch?.sessionEnded(tally) == true { break }
                            // A replayed session never waits: without this the worker would play one session after
                            // another in one go, and its event loop would read no answer (and time beacons out)
                            // meanwhile.
                            await Task.yield()
                        }
                    }
                }
            }
        }
        // A breach stops the fleet as a signal does: workers waiting for room to start a session (or a beacon past the
        // ceiling) stop waiting, and the sessions under way are cancelled.
        watch?.onBreach {
            workers.cancel()
            tally.stop()
        }
        await withTaskCancellationHandler { await workers.value } onCancel: {
            workers.cancel()
            tally.stop()
        }
    }
}
