import ArgumentParser
import Foundation

/// Parsers for option values, given to `@Option(transform:)`: each value is parsed once, while the command line is,
/// into the type the command uses. A value its option does not take is a usage error (exit 2); ArgumentParser prints
/// the message thrown here after its own "The value 'X' is invalid for '--option <name>': ".
///
/// An option parsed here has no "(default: …)" from ArgumentParser (it shows one only for `ExpressibleByArgument`
/// types, whose parse cannot say what is wrong), so its help writes the default itself (`withDefault`).
enum OptionValue {
    /// A whole number in `range`, else `message` (also for text that is no number, or one beyond `Int`).
    static func integer<Range: RangeExpression<Int> & Sendable>(in range: Range, else message: String) -> @Sendable (String) throws -> Int {
        { text in
            guard let value = Int(text), range.contains(value) else { throw ValidationError(message) }
            return value
        }
    }

    /// `--threads`: decoder threads per stream, 0 (one per core) to `OptionRanges.maxThreads`.
    static var threads: @Sendable (String) throws -> Int {
        integer(in: 0...OptionRanges.maxThreads, else: "--threads must be 0 (auto) to \(OptionRanges.maxThreads)")
    }

    /// A number in `range` (so finite), else `message`.
    static func number(in range: ClosedRange<Double>, else message: String) -> @Sendable (String) throws -> Double {
        { text in
            guard let value = Double(text), range.contains(value) else { throw ValidationError(message) }
            return value
        }
    }

    /// A number of seconds from 0 (above 0 when `positive`) to a year, as whole milliseconds; else `message`.
    static func seconds(positive: Bool = false, else message: String) -> @Sendable (String) throws -> Duration {
        { text in
            guard let value = Double(text), OptionRanges.isSeconds(value, positive: positive) else { throw ValidationError(message) }
            return OptionRanges.duration(seconds: value)
        }
    }
}

extension ArgumentHelp {
    /// Help that states the default an option parsed by `OptionValue` takes when it is not given.
    static func withDefault(_ abstract: String, _ defaultValue: some CustomStringConvertible, valueName: String? = nil) -> ArgumentHelp {
        ArgumentHelp("\(abstract) (default: \(defaultValue))", valueName: valueName)
    }

    /// Help that states a default number of seconds.
    static func withDefault(_ abstract: String, seconds defaultValue: Duration, valueName: String? = "seconds") -> ArgumentHelp {
        withDefault(abstract, OptionRanges.text(seconds: defaultValue), valueName: valueName)
    }
}
