import Primitives

extension SessionScript {
    /// Where the load steps (`load+N`) leave a session: when its first frame shows, what happened while it loaded, and
    /// the script it plays by from there.
    public struct Loading: Sendable, Equatable {
        /// Time from the ad request until the ad was ready to show (loaded, its start buffered).
        public var ready: Duration
        /// Time from the ad request to the first frame: `ready`, or later when the app was not active then (a real
        /// SDK loads in the background and starts playback once the app is active again).
        public var shown: Duration
        /// The load steps that happened up to the first frame, in order.
        public var steps: [Step]
        /// The script the session plays by: its own steps, and the load steps after the first frame on its clock.
        public var script: SessionScript

        /// How long the ready ad waited for the app.
        public var waited: Duration { shown - ready }
    }

    /// The app's lifecycle through the load steps, the ad being ready `ready` after the request: the first frame shows
    /// at `ready` if the app is active then, else at the step that makes it active again (`didBecomeActive`, the end
    /// of `foreground`). Load steps after it move to the session clock (time since the first frame).
    public func afterLoading(readyAt ready: Duration) -> Loading {
        var active = true
        var shown: Duration?
        var during: [Step] = [], after: [Step] = []
        for step in loadSteps {
            // Ready and active before this step: the ad showed at `ready`.
            if shown == nil, active, step.at > ready { shown = ready }
            if let shown, step.at > shown {
                after.append(Step(at: step.at - shown, inputs: step.inputs, text: step.text))
                continue
            }
            during.append(step)
            for case let .lifecycle(event) in step.inputs { active = event == .didBecomeActive }
            // Active again after it was ready: the ad shows now.
            if shown == nil, active, step.at >= ready { shown = step.at }
        }
        // `check(loadSteps:)` leaves the app active at the end: with no step after `ready`, the ad showed then.
        return Loading(ready: ready, shown: shown ?? ready, steps: during, script: SessionScript(steps: steps + after))
    }

    /// Load steps are lifecycle steps (only the app's state matters while the ad loads) that leave the app active (an
    /// ad never shown is not a session vplay can report).
    static func check(loadSteps: [Step]) throws(ParseError) {
        var active = true
        for step in loadSteps {
            for input in step.inputs {
                guard case let .lifecycle(event) = input else {
                    throw ParseError(description: "script step '\(step.text)': only the app's lifecycle (background, foreground, willResignActive, …) is timed from load; time the others from the first frame")
                }
                active = event == .didBecomeActive
            }
        }
        if !active, let last = loadSteps.last {
            throw ParseError(description: "script step '\(last.text)': the app is left in the background while the ad loads and never comes back, so the ad never shows; add foreground@load+SECONDS")
        }
    }
}
