import VAST

extension FleetConfiguration.BreakTracking {
    /// A VMAP break's own tracking in the fleet's one preparation, as `VMAPBreakPlayer.play` fires it in a session:
    /// `breakStart` before the break's ads and `breakEnd` after them when an ad of it plays; its `error` tracking for
    /// each failure — the response failing as a whole (in VMAP's codes: 1004, 1006, 1007, 1008), else each ad that
    /// cannot play (a pod's when its turn comes: the pod goes on), else the ad's own failure.
    func applied(to result: Result<FleetRunner.FleetAd, FleetRunner.PreparationFailure>, prepared: PreparedAd)
        -> Result<FleetRunner.FleetAd, FleetRunner.PreparationFailure> {
        switch result {
        case var .success(ad):
            ad.plan.steps.insert(.fire(start, errorCode: nil, reason: nil, facts: nil), at: 0)
            ad.breakEnd = end
            for index in ad.pod.indices {
                guard let failure = ad.pod[index].failure else { continue }
                ad.pod[index].plan.steps.append(fire(code: failure.code.rawValue, message: failure.message))
            }
            return .success(ad)
        case var .failure(failure):
            if let response = VMAPBreakPlayer.responseFailure(prepared.resolution) {
                failure.plan.steps.append(fire(code: response.code.rawValue, message: response.message))
            } else {
                let each = prepared.pod.compactMap(\.failure)
                for error in each.isEmpty ? [failure.error] : each { failure.plan.steps.append(fire(code: error.code.rawValue, message: error.message)) }
            }
            return .failure(failure)
        }
    }

    /// What a break that is not asked for is in a fleet: a failure whose sessions fire only the break's `error`.
    func notRequestedFailure(_ error: VMAPError) -> FleetRunner.PreparationFailure {
        let failure = SessionError(kind: .ad, code: .undefined, message: "VMAP \(error.code.rawValue): \(error.message)")
        return FleetRunner.PreparationFailure(error: failure, plan: SessionPlan(steps: [fire(code: error.code.rawValue, message: error.message)], failure: failure))
    }

    private func fire(code: Int, message: String) -> PreparedAd.Step {
        .fire(errors(code, message), errorCode: nil, reason: nil, facts: nil)
    }
}
