import AdSession
import ArgumentParser
import Foundation
import PlayerEngine
import Primitives

/// `vplay reward-check URL`: tests a publisher's reward-callback endpoint (AdMob server-side verification) with one
/// valid signed callback and a set of forgeries, and says per case whether the endpoint accepted or refused it.
struct RewardCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reward-check",
        abstract: "Test a reward-callback endpoint with a valid signed callback and forgeries it must refuse.",
        discussion: """
            Cases, sent in order, each with its own transaction_id except the replay: valid (must be credited), \
            replayed-transaction, flipped-signature-bit, changed-parameter, unknown-key-id, signature-not-last, \
            missing-user-id, missing-custom-data, escaped-custom-data (custom_data that needs escaping, signed over \
            the decoded query as AdMob signs it: must be credited), escaped-custom-data-raw-signed (signed over the raw \
            query: must be refused), rotated-key, unsigned. An answer with a status in --accept (default 200-299) is \
            "accepted". Point the endpoint's key fetch at the keys --reward-keys writes (or at \
            `vplay sink --reward-seed N`'s /__vplay/ssv/verifier-keys.json) for the same --seed.

            Exit codes: 0 the endpoint accepted exactly what it should; 1 it accepted a forgery or refused a valid \
            callback; 2 usage error.
            """
    )

    @Argument(help: ArgumentHelp("The endpoint, an http(s) URL without a query.", valueName: "url"), transform: RewardCallbackOptions.endpoint)
    var url: String

    @Option(help: ArgumentHelp("Seeds the signing key (and key_id) and the transaction ids.", valueName: "seed"))
    var seed: UInt64 = 1

    @Option(help: .withDefault("What the callbacks grant.", "Coins:10", valueName: "CURRENCY:AMOUNT"), transform: RewardOptions.reward)
    var reward = Reward(currency: "Coins", amount: 10)

    @Option(help: .withDefault("user_id of the callbacks.", "vplay-check-user", valueName: "id"))
    var rewardUserId: String?

    @Option(help: .withDefault("custom_data of the callbacks.", "vplay-check", valueName: "text"))
    var rewardCustomData: String?

    @Option(help: ArgumentHelp("ad_unit of the callbacks.", valueName: "id"))
    var adUnit = "1234567890"

    @Option(help: .withDefault("The HTTP statuses that mean the endpoint credited the reward.", "200-299", valueName: "LOW-HIGH"), transform: Self.statuses)
    var accept: ClosedRange<Int> = 200...299

    @Option(help: .withDefault("Seconds to wait for each answer.", seconds: .seconds(5)),
            transform: OptionValue.seconds(positive: true, else: "--timeout must be a positive number of seconds"))
    var timeout: Duration = .seconds(5)

    @Option(help: ArgumentHelp("Write the public keys JSON for --seed before sending anything.", valueName: "file"),
            completion: .file(), transform: OptionValue.writableFile("--reward-keys"))
    var rewardKeys: String?

    @Option(help: ArgumentHelp("Write JUnit XML: one test case per case.", valueName: "file"), completion: .file(), transform: OptionValue.writableFile("--junit"))
    var junit: String?

    @Option(help: ArgumentHelp("The callbacks' timestamp: ISO 8601 or ms since 1970 (default: now).", valueName: "time"), transform: WallTime.init(parsing:))
    var now: WallTime?

    @Flag(help: "One JSON object per case on stdout instead of text.")
    var json = false

    @Sendable static func statuses(_ text: String) throws -> ClosedRange<Int> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let low = Int(parts[0]), let high = Int(parts.last!), 100 <= low, low <= high, high <= 599 else {
            throw ValidationError("--accept must be a status or a range of statuses, 100 to 599 (200-299)")
        }
        return low...high
    }

    /// `--junit X --reward-keys X` wrote one file over the other: each output is its own file.
    func validate() throws {
        try OptionValue.checkNoClash(outputs: [("--reward-keys", rewardKeys), ("--junit", junit)], inputs: [])
    }

    func run() async throws {
        var options = RewardCallbackOptions()
        options.rewardKeys = rewardKeys
        try options.writeKeys(seed: seed)
        var callback = RewardCallback(url: url)
        callback.userID = rewardUserId
        callback.customData = rewardCustomData
        callback.adUnit = adUnit
        let configuration = SessionConfiguration(tag: url)
        // No redirect is followed: the signed cases go to this endpoint and to no other origin.
        let (transport, shutdown) = LiveTools.rewardCheck(configuration)
        let check = RewardCheck(callback: callback, reward: reward, seed: seed,
                                now: now?.milliseconds ?? Int64(LiveTools.wallTime().timeIntervalSince1970 * 1000))
        let elapsed = LiveTools.monotonicClock().stopwatch()
        let outcomes = await check.run(transport: transport, accepting: accept, timeout: timeout)
        await shutdown()
        let seconds = elapsed().seconds
        for outcome in outcomes {
            let answer = outcome.status.map { "HTTP \($0)" } ?? (outcome.error ?? "no answer")
            if json {
                StandardStreams.print(JSON.object([
                    ("case", .string(outcome.check.name)), ("shouldAccept", .bool(outcome.check.shouldAccept)), ("accepted", .bool(outcome.accepted)),
                    ("passed", .bool(outcome.passed)), ("status", .optional(outcome.status)), ("error", .optional(outcome.error)),
                    ("meaning", .string(outcome.check.meaning)), ("url", .string(outcome.check.url)),
                ]).text)
            } else {
                let verdict = outcome.passed ? "ok  " : "FAIL"
                let what = outcome.accepted ? "accepted" : "refused"
                StandardStreams.print("\(verdict) \(outcome.check.name.padding(toLength: 31, withPad: " ", startingAt: 0)) \(what) (\(answer)); \(outcome.check.meaning)")
            }
        }
        let failed = outcomes.filter { !$0.passed }
        if !json {
            StandardStreams.print("\nreward-check: \(outcomes.count - failed.count) of \(outcomes.count) cases as a correct endpoint answers them"
                                  + (failed.isEmpty ? "" : "; wrong: " + failed.map(\.check.name).joined(separator: ", ")))
        }
        if let junit {
            let results = outcomes.map { outcome in
                ExpectationResult(name: outcome.check.name, passed: outcome.passed,
                                  detail: outcome.passed ? nil : "\(outcome.accepted ? "accepted" : "refused") (\(outcome.status.map { "HTTP \($0)" } ?? outcome.error ?? "no answer")); a correct endpoint \(outcome.check.shouldAccept ? "credits" : "refuses") it: \(outcome.check.meaning)")
            }
            do { try OutputFile.write(JUnitReport.xml(suite: "reward-check \(url)", command: "reward-check", subject: url, results: results, started: Date(timeIntervalSinceNow: -seconds), hostname: ProcessInfo.processInfo.hostName, seconds: seconds), to: junit, option: "--junit") } catch {
                StandardStreams.fail("reward-check: \(error)")
                throw ExitCode(2)
            }
        }
        try CommandOutputs.exit(failed.isEmpty ? 0 : 1, reason: "\(failed.count) of \(outcomes.count) cases answered as a correct endpoint would not: \(failed.map(\.check.name).joined(separator: ", "))")
    }
}
