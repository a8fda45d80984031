import TrackingBeacons

extension BeaconDispatcher {
    /// The end of a session or a fleet: waits for the beacons still in flight up to `limit`; when the calling task
    /// is cancelled (a signal), before or during the wait, up to `AdSessionRunner.interruptedDrain` at most. The wait
    /// itself is not cancelled with the caller: an interrupted run still records its beacons' answers.
    func drainAtSessionEnd(waitingAtMost limit: Duration) async {
        let interrupted = AdSessionRunner.interruptedDrain
        let limit = Task.isCancelled ? min(limit, interrupted) : limit
        await withTaskCancellationHandler {
            await finish(waitingAtMost: limit)
        } onCancel: {
            self.hurry(within: interrupted)
        }
    }
}
