import AdSession
import Foundation
import PlayerEngine
import Testing
import TestSupport
@testable import vplay

/// `run`'s own options: the clock, the script, the reward and closing rules, tracking repeats, decoder threads.
/// Each is parsed once, as the command line is; `validate()` keeps only the rules across options.
@Suite struct RunOptionsParsingTests {
    func run(_ arguments: [String]) throws -> RunCommand {
        try CLI.parse(RunCommand.self, ["--vast", "ad.xml"] + arguments)
    }

    @Test func everyRunOption_isParsedIntoTheConfiguration() throws {
        let command = try run(["--dry-run", "--speed", "2.5", "--script", "mute@1,background@3,foreground@+2", "--reward", "Gems:2.5",
                               "--reward-at", "50%", "--video-close", "5s", "--close-delay", "1.5", "--no-end-card-after-skip",
                               "--repeat-tracking", "first", "--replay-tracking", "all", "--threads", "3"])
        let configuration = command.sessionConfiguration()
        #expect(configuration.dryRun)
        #expect(configuration.clock == .realtime(speed: 2.5))
        #expect(configuration.script == (try SessionScript(parsing: "mute@1,background@3,foreground@+2")))
        #expect(configuration.reward == Reward(currency: "Gems", amount: 2.5))
        #expect(configuration.rewardThreshold == .percent(50))
        #expect(configuration.videoClose == .after(.seconds(5)))
        #expect(configuration.closeDelay == .milliseconds(1500))
        #expect(!configuration.endCardAfterSkip)
        #expect(configuration.repeatTracking == .first && configuration.replayTracking == .all)
        #expect(configuration.decoderThreads == 3)
    }

    @Test func notGiven_theDefaults() throws {
        let configuration = try run([]).sessionConfiguration()
        let defaults = SessionConfiguration(tag: "ad.xml")
        #expect(!configuration.dryRun && configuration.clock == .virtual)
        #expect(configuration.script == SessionScript())
        #expect(configuration.reward == nil && configuration.rewardThreshold == .complete && configuration.videoClose == .anytime)
        #expect(configuration.closeDelay == .zero && configuration.endCardAfterSkip)
        #expect(configuration.repeatTracking == .every && configuration.replayTracking == .none)
        #expect(configuration.decoderThreads == 0)
        #expect(configuration.beaconPolicy.maxConcurrent == 32 && configuration.sink == nil && configuration.seed == defaults.seed)
    }

    @Test(arguments: [([String](), SessionConfiguration.ClockMode.virtual), (["--clock", "virtual"], .virtual),
                      (["--clock", "realtime"], .realtime(speed: 1)), (["--speed", "4"], .realtime(speed: 4)),
                      (["--clock", "realtime", "--speed", "0.001"], .realtime(speed: 0.001)), (["--speed", "1000"], .realtime(speed: 1000))])
    func clockAndSpeed_pickTheClock(_ arguments: [String], _ clock: SessionConfiguration.ClockMode) throws {
        #expect(try run(arguments).sessionConfiguration().clock == clock)
    }

    @Test(arguments: [("complete", PlaybackRules.RewardThreshold.complete), ("0%", .percent(0)), ("100%", .percent(100)),
                      ("15s", .played(.seconds(15))), ("15", .played(.seconds(15))), ("0.0005s", .played(.milliseconds(1)))])
    func rewardAt_takesCompleteAPercentageOrSecondsPlayed(_ text: String, _ threshold: PlaybackRules.RewardThreshold) throws {
        #expect(try run(["--reward-at", text]).rewards.rewardAt == threshold)
    }

    @Test(arguments: [("anytime", PlaybackRules.VideoClose.anytime), ("never", .never), ("5s", .after(.seconds(5))), ("0", .after(.zero))])
    func videoClose_takesAnytimeNeverOrSecondsPlayed(_ text: String, _ rule: PlaybackRules.VideoClose) throws {
        #expect(try run(["--video-close", text]).rewards.videoClose == rule)
    }

    @Test(arguments: [("Coins:10", Reward(currency: "Coins", amount: 10)), ("A:B:0.5", Reward(currency: "A:B", amount: 0.5)), ("Gold:-1", Reward(currency: "Gold", amount: -1))])
    func reward_isCurrencyColonAmount(_ text: String, _ reward: Reward) throws {
        #expect(try run(["--reward", text]).rewards.reward == reward)
    }

    @Test func scriptFile_isReadAndParsedOnce_whenTheCommandLineIs() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("steps.json", #"[{"at": 1, "action": "mute"}, {"at": "+1", "action": "willResignActive"}]"#)
        let command = try run(["--script-file", file])
        try FileManager.default.removeItem(atPath: file)
        #expect(command.sessionConfiguration().script == (try SessionScript(parsing: "mute@1,willResignActive@+1")), "read at parse time")
    }

    @Test func badScriptFile_isAUsageErrorSayingWhy() throws {
        let folder = try TemporaryFolder()
        let missing = folder.url.appendingPathComponent("missing.json").path
        #expect(CLI.usageError(["--vast", "ad.xml", "--script-file", missing])?.contains("--script-file \(missing): cannot read it") == true)
        let notJSON = try folder.write("steps.json", "mute@1")
        #expect(CLI.usageError(["--vast", "ad.xml", "--script-file", notJSON])?.contains("script file is not JSON") == true)
        let both = try folder.write("ok.json", #"[{"at": 1, "action": "mute"}]"#)
        #expect(CLI.usageError(["--vast", "ad.xml", "--script", "mute@1", "--script-file", both])?.contains("--script and --script-file exclude each other") == true)
    }

    @Test(arguments: [
        (["--speed", "-1"], "--speed must be from 0.001 to 1000"),
        (["--speed", "1e300"], "--speed must be from 0.001 to 1000"),
        (["--speed", "1e-300"], "--speed must be from 0.001 to 1000"),
        (["--speed", "fast"], "--speed must be from 0.001 to 1000"),
        (["--clock", "realtime", "--speed", "1e300"], "--speed must be from 0.001 to 1000"),
        (["--clock", "virtual", "--speed", "2"], "--speed plays in real time; it does not go with --clock virtual"),
        (["--speed", "2", "--clock", "virtual"], "--speed plays in real time; it does not go with --clock virtual"),
        (["--clock", "sundial"], "Please provide one of 'virtual' and 'realtime'"),
        (["--script", ",,,"], "the script has no steps"),
        (["--script", "jump@3"], "unknown action 'jump'"),
        (["--reward", "Coins"], "--reward must look like Coins:10"),
        (["--reward", ":5"], "--reward must look like Coins:10"),
        (["--reward", "Coins:inf"], "--reward must look like Coins:10"),
        (["--reward-at", "150%"], "--reward-at must be complete, a percentage (50%) or seconds (15s)"),
        (["--reward-at", "1e300s"], "--reward-at must be complete, a percentage (50%) or seconds (15s)"),
        (["--reward-at", "soon"], "--reward-at must be complete, a percentage (50%) or seconds (15s)"),
        (["--video-close", "sometimes"], "--video-close must be anytime, never or seconds (5s)"),
        (["--video-close", "1e300s"], "--video-close must be anytime, never or seconds (5s)"),
        (["--close-delay", "-1"], "--close-delay must be 0 or more seconds, at most a year"),
        (["--close-delay", "1e300"], "--close-delay must be 0 or more seconds, at most a year"),
        (["--repeat-tracking", "sometimes"], "Please provide one of 'every' and 'first'"),
        (["--replay-tracking", "some"], "Please provide one of 'none' and 'all'"),
        (["--threads", "-1"], "--threads must be 0 (auto) to 1024"),
        (["--threads", "99999999999"], "--threads must be 0 (auto) to 1024"),
        // 100 KB of custom data failed only at the reward, as a URL too long to send.
        (["--reward-callback", "http://127.0.0.1:9/ssv", "--reward-custom-data", String(repeating: "x", count: 100_000)],
         "--reward-custom-data and --reward-user-id are 100000 bytes encoded"),
    ])
    func badValueOrRuleBroken_isAUsageErrorNamingTheOption(_ arguments: [String], _ message: String) {
        let error = CLI.usageError(["--vast", "ad.xml"] + arguments)
        #expect(error?.contains(message) == true, "\(arguments): \(error ?? "no usage error")")
        #expect(error?.contains(arguments[arguments.count - 2]) == true, "the message names the option: \(error ?? "")")
    }
}
