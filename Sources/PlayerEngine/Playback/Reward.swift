/// What a rewarded ad grants (`adRewarded(name, amount)` in the Adcash SDK).
public struct Reward: Sendable, Equatable, Codable {
    /// The name of what is granted (`reward_item` in a reward callback).
    public var currency: String
    /// How much of it.
    public var amount: Double
    /// A reward of `amount` of `currency`.
    public init(currency: String, amount: Double) {
        self.currency = currency
        self.amount = amount
    }
}
