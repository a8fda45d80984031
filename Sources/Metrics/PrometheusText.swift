/// Writes metric families in the Prometheus text exposition format, version 0.0.4 (prometheus.io/docs/instrumenting/
/// exposition_formats): a `# HELP` and a `# TYPE` line per family, then its samples; label values with `\`, `"` and
/// newlines escaped, help text with `\` and newlines escaped; a histogram as cumulative `_bucket{le="…"}` samples
/// ending at `+Inf`, then `_sum` and `_count`.
public enum PrometheusText {
    /// The `Content-Type` of the exposition.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    public static func render(_ families: [MetricFamily]) -> String {
        var text = ""
        for family in families {
            text += "# HELP \(family.name) \(escapeHelp(family.help))\n"
            text += "# TYPE \(family.name) \(family.kind.rawValue)\n"
            for sample in family.samples {
                switch sample.value {
                case let .number(value):
                    text += line(family.name, sample.labels, number(value))
                case let .histogram(buckets, sum, count):
                    for bucket in buckets {
                        text += line(family.name + "_bucket", sample.labels + [.init("le", number(bucket.upperBound))], String(bucket.count))
                    }
                    text += line(family.name + "_bucket", sample.labels + [.init("le", "+Inf")], String(count))
                    text += line(family.name + "_sum", sample.labels, number(sum))
                    text += line(family.name + "_count", sample.labels, String(count))
                }
            }
        }
        return text
    }

    private static func line(_ name: String, _ labels: [MetricFamily.Label], _ value: String) -> String {
        guard !labels.isEmpty else { return "\(name) \(value)\n" }
        let pairs = labels.map { "\($0.name)=\"\(escapeLabel($0.value))\"" }.joined(separator: ",")
        return "\(name){\(pairs)} \(value)\n"
    }

    /// A number as Prometheus reads it: whole numbers without a fraction, `+Inf`, `-Inf`, `NaN`.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// A label value escaped: `\`, `"` and newlines.
    static func escapeLabel(_ value: String) -> String { escape(value, quotes: true) }

    /// Help text escaped: `\` and newlines (quotes stay).
    static func escapeHelp(_ value: String) -> String { escape(value, quotes: false) }

    private static func escape(_ value: String, quotes: Bool) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"" where quotes: escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
