/// `<Pricing model="cpm" currency="USD">25.00</Pricing>`.
public struct Pricing: Sendable, Hashable, Codable {
    /// `model` attribute (`CPM`, `CPC`, `CPE`, `CPV`).
    public var model: String?
    /// `currency` attribute (ISO 4217).
    public var currency: String?
    /// The price as written (kept as text so no decimal precision is lost).
    public var value: String

    public init(model: String?, currency: String?, value: String) {
        self.model = model
        self.currency = currency
        self.value = value
    }
}
