import Primitives
import Foundation

/// Scripted user and OS actions at session-clock times: `mute@1,background@3,foreground@13,click@15,close@+2`.
///
/// Each step is `WORD@TIME`: TIME in seconds since the first frame (`3`, `2.5`), or `+N` seconds after the previous
/// step as written. WORD is an action (pause, resume, mute, unmute, skip, click, clickthroughClose, close,
/// endcardClick, replay), a lifecycle notification (willResignActive, didEnterBackground, willEnterForeground,
/// didBecomeActive; Android onPause, onStop, onStart, onResume) or a shorthand (`background`, `foreground`).
/// Steps run in time order; steps at the same time run in the order written.
public struct SessionScript: Sendable, Equatable {
    public struct Step: Sendable, Equatable {
        public var at: Duration
        public var inputs: [SessionInput]
        /// The step as written, for messages.
        public var text: String

        public init(at: Duration, inputs: [SessionInput], text: String) {
            self.at = at
            self.inputs = inputs
            self.text = text
        }
    }

    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    public private(set) var steps: [Step]

    public init(steps: [Step] = []) {
        self.steps = steps.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
    }

    /// Parses the `--script` form.
    public init(parsing text: String) throws(ParseError) {
        var steps: [Step] = []
        var previous: Duration = .zero
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        if items.allSatisfy(\.isEmpty) { throw ParseError(description: "the script has no steps (expected ACTION@SECONDS,…)") }
        for item in items {
            if item.isEmpty { throw ParseError(description: "script '\(text)': an empty step between commas") }
            guard let at = item.lastIndex(of: "@") else { throw ParseError(description: "script step '\(item)': expected ACTION@SECONDS") }
            let step = try Self.step(word: String(item[..<at]), time: String(item[item.index(after: at)...]), previous: previous, text: item)
            previous = step.at
            steps.append(step)
        }
        self.init(steps: steps)
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
        var previous: Duration = .zero
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
            previous = step.at
            steps.append(step)
        }
        self.init(steps: steps)
    }

    private static func step(word: String, time: String, previous: Duration, text: String) throws(ParseError) -> Step {
        guard let inputs = SessionInput.parse(word.trimmingCharacters(in: .whitespaces)) else {
            throw ParseError(description: "script step '\(text)': unknown action '\(word)'")
        }
        let relative = time.hasPrefix("+")
        guard let seconds = Double(relative ? String(time.dropFirst()) : time), seconds.isFinite, seconds >= 0, seconds < 86_400 else {
            throw ParseError(description: "script step '\(text)': '\(time)' is not a number of seconds (0 to 86400, or +N)")
        }
        let offset = Duration.nanoseconds(Int64((seconds * 1e9).rounded()))
        return Step(at: relative ? previous + offset : offset, inputs: inputs, text: text)
    }

    /// The time of the next step after index `position`.
    func time(at position: Int) -> Duration? { position < steps.count ? steps[position].at : nil }
}
