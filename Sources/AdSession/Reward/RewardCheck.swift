import Foundation
import PlayerEngine
import Primitives
import TrackingBeacons

/// `vplay reward-check`: sends a publisher's reward-callback endpoint one valid signed callback and a set of
/// forgeries, and judges each answer. A correct endpoint (Google's reference verifier and a replay check) accepts
/// exactly the valid callback and the one whose `custom_data` needs escaping, signed over the decoded query as AdMob
/// signs it; every other case must be refused. Each case has a transaction id of its own, except the replay.
public struct RewardCheck: Sendable {
    /// One callback the check sends: the valid one or a forgery.
    public struct Case: Sendable, Equatable {
        /// A stable name (`valid`, `flipped-signature-bit`, …).
        public var name: String
        /// What it tests, in words.
        public var meaning: String
        /// A correct endpoint accepts it.
        public var shouldAccept: Bool
        /// The signed callback URL to request.
        public var url: String
    }

    /// What the endpoint answered to one case, and whether that was right.
    public struct Outcome: Sendable, Equatable {
        /// The case sent.
        public var check: Case
        /// The HTTP status of the answer; nil when none came.
        public var status: Int?
        /// Why the request failed, in words; nil on a complete response.
        public var error: String?
        /// The endpoint answered with an accepting status.
        public var accepted: Bool
        /// The endpoint did what a correct one does: accepted a case it should accept, or refused one it should refuse.
        public var passed: Bool { accepted == check.shouldAccept }
    }

    /// The endpoint and the callback's parameters.
    public var callback: RewardCallback
    /// The reward the callbacks claim (`reward_item`, `reward_amount`).
    public var reward: Reward
    /// Derives the signing key and the transaction ids.
    public var seed: UInt64
    /// Wall time of the callbacks (ms since 1970): `timestamp`.
    public var now: Int64

    /// A check of `callback`'s endpoint; `now` is the callbacks' `timestamp`, ms since 1970.
    public init(callback: RewardCallback, reward: Reward, seed: UInt64, now: Int64) {
        self.callback = callback
        self.reward = reward
        self.seed = seed
        self.now = now
    }

    /// The cases, in the order they are sent (the replay right after the valid one).
    public var cases: [Case] {
        let signer = RewardSigner.current(seed: seed)
        var callback = self.callback
        callback.userID = callback.userID ?? "vplay-check-user"
        callback.customData = callback.customData ?? "vplay-check"
        func parameters(_ index: UInt64, _ callback: RewardCallback) -> [(name: String, value: String)] {
            callback.parameters(reward: reward, timestamp: now, transactionID: RewardCallback.transactionID(seed: seed &+ index &* 0x9E37_79B9))
        }
        func url(_ parameters: [(name: String, value: String)], signing: RewardCallback.Signing = .decoded, signer: RewardSigner = signer) -> String {
            RewardCallback.url(callback.url, parameters: parameters, signer: signer, signing: signing)
        }
        var cases: [Case] = []
        let valid = url(parameters(1, callback))
        cases.append(Case(name: "valid", meaning: "a correctly signed callback: must be credited", shouldAccept: true, url: valid))
        cases.append(Case(name: "replayed-transaction", meaning: "the valid callback again, same transaction_id: must not be credited twice",
                          shouldAccept: false, url: valid))
        cases.append(Case(name: "flipped-signature-bit", meaning: "one bit of the signature flipped", shouldAccept: false,
                          url: Self.flippingSignatureBit(url(parameters(2, callback)))))
        var changed = parameters(3, callback)
        let signedChanged = url(changed)
        changed = changed.map { $0.name == "reward_amount" ? ($0.name, RewardCallback.amount(reward.amount * 100 + 1)) : $0 }
        cases.append(Case(name: "changed-parameter", meaning: "reward_amount changed after signing", shouldAccept: false,
                          url: Self.replacingContent(of: signedChanged, with: RewardCallback.query(changed))))
        cases.append(Case(name: "unknown-key-id", meaning: "a valid signature, but a key_id the keys JSON does not list", shouldAccept: false,
                          url: RewardCallback.url(callback.url, parameters: parameters(4, callback), signer: signer, keyID: signer.keyID ^ 0x5A5A)))
        cases.append(Case(name: "signature-not-last", meaning: "signature and key_id first, the signed content after them", shouldAccept: false,
                          url: Self.signatureFirst(url(parameters(5, callback)))))
        let withUser = parameters(6, callback)
        cases.append(Case(name: "missing-user-id", meaning: "user_id removed after signing", shouldAccept: false,
                          url: Self.replacingContent(of: url(withUser), with: RewardCallback.query(withUser.filter { $0.name != "user_id" }))))
        let withData = parameters(7, callback)
        cases.append(Case(name: "missing-custom-data", meaning: "custom_data removed after signing", shouldAccept: false,
                          url: Self.replacingContent(of: url(withData), with: RewardCallback.query(withData.filter { $0.name != "custom_data" }))))
        var escaping = callback
        escaping.customData = "level 3&bonus=x2/é"
        cases.append(Case(name: "escaped-custom-data", meaning: "custom_data that needs escaping, signed over the decoded query as AdMob signs it: must be credited",
                          shouldAccept: true, url: url(parameters(8, escaping))))
        cases.append(Case(name: "escaped-custom-data-raw-signed", meaning: "the same, signed over the raw (encoded) query: only a verifier of the raw query accepts it",
                          shouldAccept: false, url: url(parameters(9, escaping), signing: .raw)))
        cases.append(Case(name: "rotated-key", meaning: "signed with the key before the current one (rotated out), with its key_id", shouldAccept: false,
                          url: url(parameters(10, callback), signer: RewardSigner(seed: seed, generation: 1))))
        cases.append(Case(name: "unsigned", meaning: "no signature or key_id at all", shouldAccept: false,
                          url: callback.url + "?" + RewardCallback.query(parameters(11, callback))))
        return cases
    }

    /// Sends every case in order through `transport` and judges each answer: accepted when its status is in
    /// `accepting`.
    public func run(transport: any BeaconTransport, accepting: ClosedRange<Int>, timeout: Duration) async -> [Outcome] {
        var outcomes: [Outcome] = []
        for check in cases {
            let answer = await transport.send(check.url, timeout: timeout)
            let accepted = answer.error == nil && answer.status.map(accepting.contains) == true
            outcomes.append(Outcome(check: check, status: answer.status, error: answer.error?.description, accepted: accepted))
        }
        return outcomes
    }

    /// The URL with the content (the query before `&signature=`) replaced.
    static func replacingContent(of url: String, with content: String) -> String {
        guard let question = url.firstIndex(of: "?"), let signature = url.range(of: "&signature=") else { return url }
        return String(url[...question]) + content + String(url[signature.lowerBound...])
    }

    /// `signature=…&key_id=…&content` instead of `content&signature=…&key_id=…`.
    static func signatureFirst(_ url: String) -> String {
        guard let question = url.firstIndex(of: "?"), let signature = url.range(of: "&signature=") else { return url }
        let content = url[url.index(after: question)..<signature.lowerBound]
        let tail = url[url.index(after: signature.lowerBound)...]
        return String(url[...question]) + tail + "&" + content
    }

    /// The URL with one bit of the signature's DER flipped (inside `r`, so the DER still parses).
    static func flippingSignatureBit(_ url: String) -> String {
        guard let range = url.range(of: "&signature="), let end = url[range.upperBound...].firstIndex(of: "&") else { return url }
        let text = String(url[range.upperBound..<end])
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard var bytes = Data(base64Encoded: base64), bytes.count > 12 else { return url }
        bytes[10] ^= 0x01
        return String(url[..<range.upperBound]) + RewardSigner.urlSafeBase64(bytes) + String(url[end...])
    }
}
