import ArgumentParser
import Testing
@testable import vplay

/// What `--help` prints: ArgumentParser's help for the command, which a help request (a command line that parses,
/// so exit 0) runs to print.
@Suite struct HelpTests {
    /// The help `vplay [run] --help` prints.
    func help(_ arguments: [String]) throws -> String {
        _ = try VPlay.parseAsRoot(arguments + ["--help"])
        return arguments == ["run"] ? VPlay.helpMessage(for: RunCommand.self) : VPlay.helpMessage()
    }

    @Test func help_documentsExitCodes() throws {
        let root = try help([])
        #expect(root.contains("probe"))
        #expect(root.contains("vplay run --help"), "the root help says where the run options are")
        let flat = root.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "  ", with: " ")
        for code in ["0 played", "1 an expectation failed", "2 usage error", "3 ad error", "4 media error", "5 beacon delivery failures", "130/143 interrupted"] {
            #expect(flat.contains(code), "\(code)")
        }
    }

    @Test func runHelp_namesEveryOptionExactly() throws {
        let text = try help(["run"])
        let words = Set(text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-") }).map(String.init))
        for option in ["--vast", "--map", "--max-wrappers", "--tag-timeouts", "--bandwidth", "--screen", "--media-file", "--adcash-state",
                       "--json", "--dry-run", "--clock", "--speed", "--script", "--script-file", "--reward", "--reward-at", "--video-close",
                       "--close-delay", "--no-end-card-after-skip", "--repeat-tracking", "--replay-tracking", "--seed", "--now", "--macro",
                       "--threads", "--beacon-timeout", "--beacon-drain", "--fail-on-beacon-errors", "--retries", "--beacon-concurrency",
                       "--sink", "--sink-all", "--sink-fault", "--beacons", "--har", "--report", "--junit", "--timeline", "--expect",
                       "--record-expectations", "--version"] {
            #expect(words.contains(option), "\(option) in run --help")
        }
        #expect(text.contains("Exit codes: 0 played"))
    }

    /// Options parsed by a transform get no "(default: …)" from ArgumentParser; their help writes it.
    @Test func runHelp_statesTheDefaults() throws {
        let text = try help(["run"]).replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
        for phrase in ["players need accept only 5). (default: 5)", "(IMA iOS: 8 and 4). (default: 8,4)", "seconds played (15s). (default: complete)",
                       "after N seconds played (5s). (default: anytime)", "while the app is not active). (default: 0)", "(0 or more). (default: 1)",
                       "0 = one per core. (default: 0)", "body included. (default: 5)", "reported unanswered. (default: 10)",
                       "a redirect error. (default: 0)", "in flight at once. (default: 32)", "(values: every, first; default: every)"] {
            #expect(text.contains(phrase), "\(phrase)")
        }
    }
}
