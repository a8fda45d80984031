import Foundation

/// A VMAP 1.0.1 document: the ad breaks of a content timeline, as written.
public struct VMAPDocument: Sendable, Hashable {
    /// `version` as written (1.0 and 1.0.1 are read).
    public var version: String
    /// The namespace its elements came in: one of the three real documents use, or none.
    public var namespace: Namespace
    public var breaks: [AdBreak]
    /// `Extensions` of the document, each kept as its XML text.
    public var extensions: [String]
    /// What was wrong but did not stop the document: a break left out (its code says why), a default assumed.
    public var problems: [Problem]

    /// A document built rather than read (an HLS interstitial stream's breaks).
    public init(version: String, namespace: Namespace, breaks: [AdBreak], extensions: [String] = [], problems: [Problem] = []) {
        self.version = version
        self.namespace = namespace
        self.breaks = breaks
        self.extensions = extensions
        self.problems = problems
    }

    public struct Problem: Sendable, Hashable {
        /// The break (0-based, in document order) it concerns; nil for the document.
        public var breakIndex: Int?
        public var error: VMAPError
    }

    /// Real VMAP documents name three namespaces; vplay matches elements by local name and accepts all of them.
    public enum Namespace: String, Sendable, Hashable {
        /// `http://www.iab.net/videosuite/vmap`, the specification's.
        case videosuite = "http://www.iab.net/videosuite/vmap"
        /// `http://www.iab.net/vmap-1.0`, Google's samples'.
        case vmap10 = "http://www.iab.net/vmap-1.0"
        /// `//www.iab.net/vmap-1.0`, scheme-less, as some ad servers write it.
        case schemeless = "//www.iab.net/vmap-1.0"
        /// Unprefixed elements with no namespace declared.
        case none = ""
        /// A namespace none of the above.
        case other = "other"
    }

    /// One `AdBreak`.
    public struct AdBreak: Sendable, Hashable {
        public var timeOffset: VMAPTimeOffset
        /// `timeOffset` as written, for the report.
        public var timeOffsetText: String
        /// `breakType`: a comma-separated list of linear, nonlinear, display (as written, lowercased).
        public var breakTypes: [String]
        public var breakID: String?
        /// `repeatAfter`: the break plays again this long after each time it played.
        public var repeatAfter: Duration?
        public var source: AdSource?
        /// `TrackingEvents`: breakStart, breakEnd, error.
        public var tracking: [Tracking]
        /// `Extensions` of the break, as XML text.
        public var extensions: [String]

        /// A rewarded or linear player plays linear breaks only.
        public var isLinear: Bool { breakTypes.contains("linear") }

        public init(timeOffset: VMAPTimeOffset, timeOffsetText: String, breakTypes: [String], breakID: String?, repeatAfter: Duration? = nil,
                    source: AdSource?, tracking: [Tracking], extensions: [String] = []) {
            self.timeOffset = timeOffset
            self.timeOffsetText = timeOffsetText
            self.breakTypes = breakTypes
            self.breakID = breakID
            self.repeatAfter = repeatAfter
            self.source = source
            self.tracking = tracking
            self.extensions = extensions
        }
    }

    /// An `AdSource`: where the break's ads come from.
    public struct AdSource: Sendable, Hashable {
        public var id: String?
        /// `allowMultipleAds`: whether a pod (or several ads) may play in this break (default true).
        public var allowMultipleAds: Bool
        /// `followRedirects`: whether wrappers are followed (default true).
        public var followRedirects: Bool
        public var content: Content

        public init(id: String?, allowMultipleAds: Bool, followRedirects: Bool, content: Content) {
            self.id = id
            self.allowMultipleAds = allowMultipleAds
            self.followRedirects = followRedirects
            self.content = content
        }

        public enum Content: Sendable, Hashable {
            /// `VASTAdData` (or the unprefixed `VASTData` real documents use): the VAST document inline, as bytes.
            case inlineVAST(Data, elementName: String)
            /// `AdTagURI` with its `templateType` (vast1, vast2, vast3, vast4…).
            case adTagURI(String, templateType: String)
            /// `CustomAdData` with its `templateType`: reported, not played.
            case custom(String, templateType: String)
        }
    }

    public struct Tracking: Sendable, Hashable {
        /// breakStart, breakEnd or error.
        public var event: String
        public var url: String

        public init(event: String, url: String) {
            self.event = event
            self.url = url
        }
    }
}
