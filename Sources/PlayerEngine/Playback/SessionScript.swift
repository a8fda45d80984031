import Primitives
import Foundation

/// Scripted user and OS actions at session-clock times: `mute@1,background@3,foreground@13,click@15,close@+2`.
///
/// `viewport@T=PCT` sets the share of the ad's pixels in view from T on (`viewport@3=30`; the JSON form's action is
/// `viewport=30`).
///
/// Each step is `WORD@TIME`: TIME in seconds since the first frame (`3`, `2.5`), `+N` seconds after the previous
/// step as written, or `adK+N` seconds after the first frame of the K-th ad of a pod (`skip@ad2+5`; `adK` alone is
/// its first frame; a `+N` after it stays in that ad). WORD is an action (pause, resume, mute, unmute, skip, click, clickthroughClose, close,
/// endcardClick, replay), a lifecycle notification (willResignActive, didEnterBackground, willEnterForeground,
/// didBecomeActive; Android onPause, onStop, onStart, onResume) or a shorthand (`background`, `foreground`).
/// Steps run in time order; steps at the same time run in the order written.
///
/// `load+N` (or `load`) times a lifecycle step from the ad request instead, while the ad may still be loading
/// (`background@load+0.5,foreground@load+3`): loading goes on in the background, and the first frame waits until the
/// app is active again (`afterLoading(readyAt:)`); load steps after the first frame run on the session clock.
public struct SessionScript: Sendable, Equatable {
    /// One step of the script: the inputs one `WORD@TIME` gives, at its time.
    public struct Step: Sendable, Equatable {
        /// Session time; with `ad`, time since that ad's first frame.
        public var at: Duration
        /// The 1-based place in the pod `at` counts from; nil: the session's first frame.
        public var ad: Int?
        /// `at` counts from the ad request (`load+N`), not from a first frame.
        public var fromLoad = false
        /// The inputs, in order (a shorthand gives two).
        public var inputs: [SessionInput]
        /// The step as written, for messages.
        public var text: String

        /// A step as given; `ad` nil counts `at` from the session's first frame.
        public init(at: Duration, ad: Int? = nil, inputs: [SessionInput], text: String) {
            self.at = at
            self.ad = ad
            self.inputs = inputs
            self.text = text
        }
    }

    /// Why a script could not be parsed; `description` is the message for the user.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The steps, in the order they run.
    public private(set) var steps: [Step]
    /// The steps timed from the ad request (`load+N`), in time order: not among `steps` until `afterLoading` places
    /// them.
    public private(set) var loadSteps: [Step]

    /// Steps in time order: session-time steps first, then each ad's (`adK+N`) by ad, each in time order; equal
    /// times keep the order written. Load steps (`fromLoad`) are kept apart, in `loadSteps`.
    public init(steps: [Step] = []) {
        func ordered(_ steps: [Step]) -> [Step] {
            steps.enumerated().sorted {
                ($0.element.ad ?? 0, $0.element.at, $0.offset) < ($1.element.ad ?? 0, $1.element.at, $1.offset)
            }.map(\.element)
        }
        self.steps = ordered(steps.filter { !$0.fromLoad })
        loadSteps = ordered(steps.filter(\.fromLoad))
    }

    /// The steps that happen during an ad that starts at session time `start`: `remaining` session-time steps
    /// shifted to the ad's clock, and the ad's own `adK+N` steps, in time order (a step before the ad's start, at
    /// the instant the previous ad ended, is at its first frame). `order[i]` is the index in `remaining + own` of
    /// the script's step `i`.
    public static func forAd(startingAt start: Duration, remaining: [Step], own: [Step]) -> (script: SessionScript, order: [Int]) {
        let all = remaining.map { Step(at: max(.zero, $0.at - start), inputs: $0.inputs, text: $0.text) }
            + own.map { Step(at: $0.at, inputs: $0.inputs, text: $0.text) }
        let order = all.indices.sorted { (all[$0].at, $0) < (all[$1].at, $1) }
        return (SessionScript(steps: order.map { all[$0] }), order)
    }

    /// Parses the `--script` form.
    public init(parsing text: String) throws(ParseError) {
        var steps: [Step] = []
        var previous = Step(at: .zero, inputs: [], text: "")
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        if items.allSatisfy(\.isEmpty) { throw ParseError(description: "the script has no steps (expected ACTION@SECONDS,…)") }
        for item in items {
            if item.isEmpty { throw ParseError(description: "script '\(text)': an empty step between commas") }
            guard let at = item.lastIndex(of: "@") else { throw ParseError(description: "script step '\(item)': expected ACTION@SECONDS") }
            let step = try Self.step(word: String(item[..<at]), time: String(item[item.index(after: at)...]), previous: previous, text: item)
            previous = step
            steps.append(step)
        }
        try self.init(checking: steps)
    }

    /// The steps as parsed, once the load steps are checked: lifecycle steps only, leaving the app active.
    private init(checking steps: [Step]) throws(ParseError) {
        self.init(steps: steps)
        try Self.check(loadSteps: loadSteps)
    }

    /// Parses the `--script-file` JSON form: `[{"at": 1, "action": "mute"}, {"at": "+2", "action": "close"}]`
    /// (or that array under a `"steps"` key). `at` is a number of seconds or a string (`"+2"`, `"3.5"`).
    public init(json data: Data) throws(ParseError) {
        let parsed: Any
        do { parsed = try JSONSerialization.jsonObject(with: data) } catch {
            throw ParseError(description: "script file is not JSON: \(error.localizedDescription)")
        }
        let list = (parsed as? [Any]) ?? ((parsed as? [String: Any])?["steps"] as? [Any])
        guard let list else { throw ParseError(description: "script file: expected an array of {\"at\", \"action\"} objects or {\"steps\": [...]}") }
        var steps: [Step] = []
        var previous = Step(at: .zero, inputs: [], text: "")
        for (index, entry) in list.enumerated() {
            guard let object = entry as? [String: Any], let word = object["action"] as? String else {
                throw ParseError(description: "script file step \(index + 1): expected {\"at\": seconds, \"action\": name}")
            }
            let time: String
            // JSON true/false arrive as char-typed NSNumbers: a boolean is not a time.
            if let number = object["at"] as? NSNumber, String(cString: number.objCType) != "c" {
                time = number.stringValue
            } else if let text = object["at"] as? String {
                time = text
            } else {
                throw ParseError(description: "script file step \(index + 1): \"at\" must be a number of seconds or a string like \"+2\"")
            }
            let step = try Self.step(word: word, time: time, previous: previous, text: "\(word)@\(time)")
            previous = step
            steps.append(step)
        }
        try self.init(checking: steps)
    }

    private static func step(word: String, time: String, previous: Step, text: String) throws(ParseError) -> Step {
        var word = word.trimmingCharacters(in: .whitespaces)
        var time = time.trimmingCharacters(in: .whitespaces)
        if word.lowercased() == "viewport" {
            // `viewport@3=30`: the value follows the time.
            guard let equals = time.lastIndex(of: "=") else {
                throw ParseError(description: "script step '\(text)': expected viewport@SECONDS=PERCENT (e.g. viewport@3=30)")
            }
            word += "=" + time[time.index(after: equals)...]
            time = String(time[..<equals])
        }
        guard let inputs = SessionInput.parse(word) else {
            if word.lowercased().hasPrefix("viewport=") {
                throw ParseError(description: "script step '\(text)': the viewport is a percent of the ad's pixels in view, 0 to 100")
            }
            throw ParseError(description: "script step '\(text)': unknown action '\(word)'")
        }
        if time.lowercased().hasPrefix("load") {
            // `load`, `load+N`: since the ad request.
            let rest = time.dropFirst(4)
            guard rest.isEmpty || rest.hasPrefix("+"), let seconds = rest.isEmpty ? 0 : Double(rest.dropFirst()), seconds.isFinite, seconds >= 0, seconds < 86_400 else {
                throw ParseError(description: "script step '\(text)': expected load or load+SECONDS (0 to 86400)")
            }
            var step = Step(at: .nanoseconds(Int64((seconds * 1e9).rounded())), inputs: inputs, text: text)
            step.fromLoad = true
            return step
        }
        var ad: Int?
        if time.lowercased().hasPrefix("ad") {
            // `adK`, `adK+N`: relative to the K-th ad's first frame.
            let rest = time.dropFirst(2)
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard let index = Int(digits), (1...10_000).contains(index) else {
                throw ParseError(description: "script step '\(text)': '\(time)' names no ad (expected adK or adK+SECONDS, K from 1)")
            }
            ad = index
            let offset = rest.dropFirst(digits.count)
            if offset.isEmpty {
                return Step(at: .zero, ad: index, inputs: inputs, text: text)
            }
            guard offset.hasPrefix("+") else {
                throw ParseError(description: "script step '\(text)': expected adK+SECONDS after the ad")
            }
            time = String(offset.dropFirst())
        }
        let relative = ad == nil && time.hasPrefix("+")
        guard let seconds = Double(relative ? String(time.dropFirst()) : time), seconds.isFinite, seconds >= 0, seconds < 86_400 else {
            throw ParseError(description: "script step '\(text)': '\(time)' is not a number of seconds (0 to 86400, or +N)")
        }
        let offset = Duration.nanoseconds(Int64((seconds * 1e9).rounded()))
        if let ad { return Step(at: offset, ad: ad, inputs: inputs, text: text) }
        // `+N` after an ad-relative step stays in that ad, after a load step in the load.
        var step = Step(at: relative ? previous.at + offset : offset, ad: relative ? previous.ad : nil, inputs: inputs, text: text)
        step.fromLoad = relative && previous.fromLoad
        return step
    }

    /// The time of the next step after index `position`.
    func time(at position: Int) -> Duration? { position < steps.count ? steps[position].at : nil }
}
