/// One metric family of the Prometheus text exposition format (version 0.0.4): its name, help text, type and
/// samples, as `PrometheusText` writes them.
public struct MetricFamily: Sendable, Equatable {
    /// The family's type, as its `# TYPE` line says.
    public enum Kind: String, Sendable {
        case counter, gauge, histogram
    }

    /// One sample: its labels (name and value, in order) and its value.
    public struct Sample: Sendable, Equatable {
        public var labels: [Label]
        public var value: Value

        public init(_ labels: [Label] = [], _ value: Value) {
            (self.labels, self.value) = (labels, value)
        }
    }

    /// A label's name and value.
    public struct Label: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            (self.name, self.value) = (name, value)
        }
    }

    /// A counter's or gauge's number, or a histogram's cumulative buckets (upper bounds ascending, `+Inf` added by
    /// the writer), sum and count.
    public enum Value: Sendable, Equatable {
        case number(Double)
        case histogram(buckets: [Bucket], sum: Double, count: UInt64)
    }

    /// A histogram bucket: how many observations were at most `upperBound`.
    public struct Bucket: Sendable, Equatable {
        public var upperBound: Double
        public var count: UInt64

        public init(upperBound: Double, count: UInt64) {
            (self.upperBound, self.count) = (upperBound, count)
        }
    }

    /// The name as exposed: a counter's ends in `_total` (Prometheus's convention, which `promtool check metrics`
    /// checks), a unit's suffix in its base unit (`_seconds`, `_bytes`).
    public var name: String
    public var help: String
    public var kind: Kind
    public var samples: [Sample]

    public init(_ name: String, _ kind: Kind, help: String, samples: [Sample]) {
        (self.name, self.kind, self.help, self.samples) = (name, kind, help, samples)
    }
}
