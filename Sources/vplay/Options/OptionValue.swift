import ArgumentParser
import Foundation
import Primitives

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

    /// Throws a usage error when the output cannot be written at `path`; nothing there is changed, and nothing is
    /// left behind (`OutputFile.check`).
    static func checkWritable(_ path: String, option: String) throws {
        do { try OutputFile.check(path, option: option) } catch {
            throw ValidationError("\(option) \(path): cannot write there (\(error.reason))")
        }
    }

    /// Throws a usage error when an output would replace one of the command's inputs or another output: compared
    /// by the file they name (symbolic links, `..`, device and inode), not by how they are written. An output
    /// written in place (a device, a FIFO, stdout) replaces nothing and is never refused; an output inside an
    /// input folder (`--map`) is.
    static func checkNoClash(outputs: [(option: String, path: String?)], inputs: [(option: String, path: String?)],
                             inputFolders: [(option: String, path: String)] = []) throws {
        let replaced = outputs.compactMap { output in output.path.map { (option: output.option, path: $0) } }
            .filter { !OutputFile.writesInPlace($0.path) }
        for (index, output) in replaced.enumerated() {
            let identity = FileIdentity(output.path)
            for input in inputs {
                guard let path = input.path, identity.isSame(as: FileIdentity(path)) else { continue }
                throw ValidationError("\(output.option) \(output.path): that is the \(input.option) input \(path); an output must not replace an input")
            }
            for folder in inputFolders where identity.isInside(FileIdentity(folder.path)) {
                throw ValidationError("\(output.option) \(output.path): inside the \(folder.option) folder \(folder.path), which vplay reads; write it elsewhere")
            }
            for other in replaced[..<index] where identity.isSame(as: FileIdentity(other.path)) {
                throw ValidationError("\(output.option) \(output.path): \(other.option) \(other.path) is the same file; give each output its own")
            }
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
