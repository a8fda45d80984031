import AdSession
import ArgumentParser
import Foundation
import Primitives

/// A run bundle (`vplay --vast … --bundle FILE`, and every studio run): the tag documents as fetched, the command
/// line that played them (outputs left out) with the seed and `--now` fixed, so `vplay --replay FILE` plays the same
/// session again without the ad server — the artefact to share when a tag is private. Media and other input files
/// (a network trace, a script file) are referenced by their paths and URLs, not carried.
struct RunBundle: Codable {
    /// The format's version.
    var vplayBundle = 1
    /// The vplay that wrote it.
    var vplay: String
    /// `run`'s arguments, without outputs, `--json`, `--quiet` or `--replay`.
    var arguments: [String]
    var seed: UInt64
    /// `[TIMESTAMP]`'s wall time of the first frame, ISO 8601.
    var now: String
    /// Every tag document of the chain, in the order fetched.
    var documents: [RecordedTag]

    /// Options whose value is a file the run writes, and flags that change only what is printed: a replay writes
    /// the outputs its own command line asks for.
    static let dropped: Set<String> = ["--report", "--junit", "--timeline", "--record-expectations", "--beacons", "--har", "--omid-log",
                                       "--reward-keys", "--bundle", "--replay", "--adcash-state"]
    static let droppedFlags: Set<String> = ["--json", "--quiet", "-q"]

    /// The arguments to keep from `arguments` (the command line after `vplay`), with `--now` added when it is not
    /// there.
    static func kept(_ arguments: [String], now: Int64) -> [String] {
        var kept: [String] = []
        var skipNext = false
        for argument in arguments {
            if skipNext { skipNext = false; continue }
            if kept.isEmpty && argument == "run" { continue }
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if dropped.contains(name) {
                if !argument.contains("=") { skipNext = true }
                continue
            }
            if droppedFlags.contains(argument) { continue }
            kept.append(argument)
        }
        if !kept.contains(where: { $0 == "--now" || $0.hasPrefix("--now=") }) { kept.append("--now=\(ISO8601Time.text(milliseconds: now))") }
        return kept
    }

    /// The bundle as written: pretty JSON, keys sorted.
    func text() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }

    /// The command line vplay parsed (after `expand`), which a bundle written by a replay keeps.
    static let commandLine = Locked<[String]>(Array(CommandLine.arguments.dropFirst()))

    static func read(_ path: String) throws -> RunBundle {
        guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("--replay \(path): cannot read it") }
        do {
            let bundle = try JSONDecoder().decode(RunBundle.self, from: data)
            guard bundle.vplayBundle == 1 else { throw ValidationError("--replay \(path): bundle version \(bundle.vplayBundle) is not one this vplay reads (1)") }
            return bundle
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("--replay \(path): not a vplay run bundle (\(error))")
        }
    }

    /// `vplay [run] --replay FILE [more]` becomes `vplay run BUNDLE'S ARGUMENTS --replay FILE [more]`: the bundle's
    /// command line first, so options given after it win (outputs, `--json`). Any other command line is unchanged.
    static func expand(_ arguments: [String]) throws -> [String] {
        guard let first = arguments.first, first == "run" || first.hasPrefix("-") else { return arguments }
        var rest = arguments
        if rest.first == "run" { rest.removeFirst() }
        guard let index = rest.firstIndex(where: { $0 == "--replay" || $0.hasPrefix("--replay=") }) else { return arguments }
        let path: String
        if rest[index] == "--replay" {
            guard index + 1 < rest.count else { return arguments }  // ArgumentParser says the value is missing
            path = rest[index + 1]
        } else {
            path = String(rest[index].dropFirst("--replay=".count))
        }
        let bundle = try read(path)
        return ["run"] + bundle.arguments + rest
    }
}
