/// How an HLS MediaFile is opened (`MediaOpenOptions.streaming`); without it an HLS playlist is refused (403) as a
/// container vplay does not play.
public struct StreamingOptions: Sendable {
    /// Chooses among a master playlist's variants; nil: the highest `BANDWIDTH`, as with no `--bandwidth`.
    public var chooseVariant: VariantChooser?

    /// Options with `chooseVariant` (nil: the highest `BANDWIDTH`).
    public init(chooseVariant: VariantChooser? = nil) {
        self.chooseVariant = chooseVariant
    }
}
