import AdSession
import ArgumentParser
import Foundation
import Networking
import Primitives

/// The ad network's signed server-to-server reward callback (AdMob server-side verification): where it goes, what it
/// carries, and the public keys file a backend verifies it with. Taken by `run` and `fleet`.
struct RewardCallbackOptions: ParsableArguments {
    @Option(help: ArgumentHelp("When the reward is granted, send a signed reward callback (AdMob server-side verification) to URL: GET with ad_network, ad_unit, custom_data, reward_amount, reward_item, timestamp, transaction_id, user_id, then signature and key_id.", valueName: "url"),
            transform: Self.endpoint)
    var rewardCallback: String?

    @Option(help: ArgumentHelp("The callback's user_id (omitted when not given).", valueName: "id"))
    var rewardUserId: String?

    @Option(help: ArgumentHelp("The callback's custom_data (omitted when not given).", valueName: "text"))
    var rewardCustomData: String?

    @Option(help: ArgumentHelp("The callback's ad_unit.", valueName: "id"))
    var adUnit = "1234567890"

    @Option(help: ArgumentHelp("Write the public keys JSON a backend verifies the callbacks with ({\"keys\":[{\"keyId\":...,\"pem\":...,\"base64\":...}]}; the key comes from --seed), before anything plays.", valueName: "file"),
            completion: .file(), transform: OptionValue.writableFile("--reward-keys"))
    var rewardKeys: String?

    /// More than the callback's query takes besides custom_data and user_id (names, ad network and unit, reward,
    /// timestamp, transaction id, signature and key id: about 350 bytes).
    static let otherParametersBytes = 1024

    /// An http(s) URL that can be requested, without a query (the callback's query is the signed content).
    @Sendable static func endpoint(_ text: String) throws -> String {
        do { _ = try RequestURL.check(text) } catch {
            throw ValidationError("--reward-callback \(text): not a URL that can be requested (\(error))")
        }
        guard URLComponents(string: text)?.query == nil, !text.contains("#") else {
            throw ValidationError("--reward-callback \(text): the URL must have no query or fragment (the callback's query is what is signed)")
        }
        return text
    }

    func validate() throws {
        if rewardCallback == nil, rewardUserId != nil || rewardCustomData != nil {
            throw ValidationError("--reward-user-id and --reward-custom-data go with --reward-callback")
        }
        // 100 KB of custom data was accepted, and the callback then failed at the reward as a URL too long to send:
        // the whole URL must fit (`RequestURL.maxLength`), the rest of its query (ids, amount, timestamp, signature)
        // counted generously.
        let encoded = [rewardCustomData, rewardUserId].compactMap { $0?.addingPercentEncoding(withAllowedCharacters: .alphanumerics)?.utf8.count }.reduce(0, +)
        if let rewardCallback, rewardCallback.utf8.count + encoded + Self.otherParametersBytes > RequestURL.maxLength {
            throw ValidationError("--reward-custom-data and --reward-user-id are \(encoded) bytes encoded: the reward callback's URL would be longer than the \(RequestURL.maxLength) bytes a request may have")
        }
    }

    var outputs: [(option: String, path: String?)] { [("--reward-keys", rewardKeys)] }

    func apply(to configuration: inout SessionConfiguration) {
        guard let rewardCallback else { return }
        var callback = RewardCallback(url: rewardCallback)
        callback.userID = rewardUserId
        callback.customData = rewardCustomData
        callback.adUnit = adUnit
        configuration.rewardCallback = callback
    }

    /// Writes the keys file of `seed`, when asked.
    func writeKeys(seed: UInt64) throws {
        guard let rewardKeys else { return }
        do {
            try OutputFile.write(String(decoding: RewardSigner.keysJSON([RewardSigner.current(seed: seed)]), as: UTF8.self), to: rewardKeys, option: "--reward-keys")
        } catch {
            throw ValidationError("--reward-keys \(rewardKeys): cannot write there (\(error))")
        }
    }

    /// The keys file written once, when the media is known and no output clashes with it (`run` and `fleet`
    /// resolve the tag first: written as the command started, `--reward-keys clip.mp4` replaced the ad's media
    /// before the clash was found), and before any callback can need it.
    func keysOnce(seed: UInt64) -> KeysOnce { KeysOnce(options: self, seed: seed) }

    final class KeysOnce: Sendable {
        private let options: RewardCallbackOptions
        private let seed: UInt64
        private let written = Locked(false)

        init(options: RewardCallbackOptions, seed: UInt64) { (self.options, self.seed) = (options, seed) }

        /// Writes the file the first time; nil when written (or not asked for), else why it could not be.
        func write() -> String? {
            guard !written.withLock({ done in defer { done = true }; return done }) else { return nil }
            do { try options.writeKeys(seed: seed) } catch { return "\(error)" }
            return nil
        }
    }
}
