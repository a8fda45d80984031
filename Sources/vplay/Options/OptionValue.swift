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

    /// A path an output file can be written at, checked now so that a run fails before its ad plays (and its beacons
    /// go out) rather than after.
    static func writableFile(_ option: String) -> @Sendable (String) throws -> String {
        { path in
            try checkWritable(path, option: option)
            return path
        }
    }

    /// Throws a usage error when an output file cannot be created at `path` (a file there is kept as it is).
    static func checkWritable(_ path: String, option: String) throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard !isDirectory.boolValue, manager.isWritableFile(atPath: path) else {
                throw ValidationError("\(option) \(path): cannot write there")
            }
            return
        }
        guard manager.createFile(atPath: path, contents: nil) else { throw ValidationError("\(option) \(path): cannot write there") }
        try? manager.removeItem(atPath: path)
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
