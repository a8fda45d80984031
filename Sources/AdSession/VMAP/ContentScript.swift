import Foundation
import Primitives

/// What happens to the content around a VMAP schedule (`--content-script`), on the content clock:
/// `seek@30=120` (at content second 30 the viewer seeks to 120), `background@60=10` (at content second 60 the app
/// goes to the background for 10 s of session time, the content paused), `contentComplete@95` (the app signals the
/// content's end early) or `contentComplete@never` (it never does: the post-roll is requested and never plays, the
/// bug of players that forget the call). Without a `contentComplete` step it is signalled at the content's end.
public struct ContentScript: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        /// The playhead jumps to this content time.
        case seek(to: Duration)
        /// The app is in the background this long (session time); the content waits.
        case background(for: Duration)
    }

    public struct Step: Sendable, Equatable {
        /// Content time it happens at.
        public var at: Duration
        public var action: Action
        /// As written, for messages.
        public var text: String
    }

    /// Seeks and backgrounds, by content time (equal times keep the order written).
    public private(set) var steps: [Step]
    /// When the app signals `contentComplete`: `.atEnd` (the default), at a content time, or never.
    public var contentComplete: ContentComplete = .atEnd

    public enum ContentComplete: Sendable, Equatable {
        case atEnd
        case at(Duration)
        case never
    }

    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    public init(steps: [Step] = [], contentComplete: ContentComplete = .atEnd) {
        self.steps = steps.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
        self.contentComplete = contentComplete
    }

    /// Parses the `--content-script` form: `WORD@SECONDS[=VALUE]`, comma-separated.
    public init(parsing text: String) throws(ParseError) {
        var steps: [Step] = []
        var complete: ContentComplete = .atEnd
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        if items.allSatisfy(\.isEmpty) { throw ParseError(description: "the content script has no steps (expected seek@30=120, background@60=10, contentComplete@never)") }
        for item in items {
            guard let at = item.firstIndex(of: "@") else { throw ParseError(description: "content script step '\(item)': expected WORD@SECONDS") }
            let word = item[..<at].lowercased()
            var rest = String(item[item.index(after: at)...])
            var value: String?
            if let equals = rest.firstIndex(of: "=") {
                value = String(rest[rest.index(after: equals)...])
                rest = String(rest[..<equals])
            }
            switch word {
            case "contentcomplete":
                guard value == nil else { throw ParseError(description: "content script step '\(item)': contentComplete takes no value") }
                complete = rest.lowercased() == "never" ? .never : .at(try Self.seconds(rest, in: item))
            case "seek":
                guard let value else { throw ParseError(description: "content script step '\(item)': expected seek@SECONDS=TARGET") }
                steps.append(Step(at: try Self.seconds(rest, in: item), action: .seek(to: try Self.seconds(value, in: item)), text: item))
            case "background":
                guard let value else { throw ParseError(description: "content script step '\(item)': expected background@SECONDS=HOW_LONG") }
                let time = try Self.seconds(value, in: item)
                guard time > .zero else { throw ParseError(description: "content script step '\(item)': the app is in the background for more than 0 s") }
                steps.append(Step(at: try Self.seconds(rest, in: item), action: .background(for: time), text: item))
            default:
                throw ParseError(description: "content script step '\(item)': unknown action '\(word)' (seek, background, contentComplete)")
            }
        }
        self.init(steps: steps, contentComplete: complete)
    }

    private static func seconds(_ text: String, in item: String) throws(ParseError) -> Duration {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, value >= 0, value <= 86_400 else {
            throw ParseError(description: "content script step '\(item)': '\(text)' is not a number of seconds (0 to 86400)")
        }
        return .nanoseconds(Int64((value * 1e9).rounded()))
    }
}
