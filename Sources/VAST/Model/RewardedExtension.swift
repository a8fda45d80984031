/// The rewarded-video extension as the Adcash format carries it:
///
/// ```xml
/// <Extension name="RewardedVideo">
///   <RewardedVideoOn>1</RewardedVideoOn> <VirtualCurrency>Lives</VirtualCurrency>
///   <RewardPerView>12.000000</RewardPerView> <VirtualCurrencyImage>http://…/lives.jpg</VirtualCurrencyImage>
///   <PreRollMessageOn>1</PreRollMessageOn> <PostRollMessageOn>1</PostRollMessageOn>
/// </Extension>
/// ```
///
/// Recognised on an `<Extension>` whose `name` or `type` is `RewardedVideo` (case-insensitive), or that has a
/// `<RewardedVideoOn>` child.
public struct RewardedExtension: Sendable, Hashable, Codable {
    /// `<RewardedVideoOn>` is `1`/`true`. `false` when absent.
    public var isEnabled: Bool
    /// `<VirtualCurrency>`: the currency name, e.g. `Lives`.
    public var currencyName: String?
    /// `<RewardPerView>` parsed as a number (`12.000000` → 12). `nil` when absent or not a number.
    public var amount: Double?
    /// `<RewardPerView>` as written, so no precision is lost.
    public var amountText: String?
    /// `<VirtualCurrencyImage>` URL.
    public var currencyImageURL: String?
    /// `<PreRollMessageOn>` is `1`/`true`: show a message before the video.
    public var preRollMessage: Bool
    /// `<PostRollMessageOn>` is `1`/`true`: show a message after the video.
    public var postRollMessage: Bool

    public init(isEnabled: Bool, currencyName: String?, amount: Double?, amountText: String?,
                currencyImageURL: String?, preRollMessage: Bool, postRollMessage: Bool) {
        self.isEnabled = isEnabled
        self.currencyName = currencyName
        self.amount = amount
        self.amountText = amountText
        self.currencyImageURL = currencyImageURL
        self.preRollMessage = preRollMessage
        self.postRollMessage = postRollMessage
    }
}
