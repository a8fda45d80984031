extension ResolvedAd {
    /// Why vplay cannot play this ad, as the VAST error to report to every `<Error>` URL of its chain (wrappers
    /// outermost first, the InLine last), or `nil` when it can. An ad is playable when it has a Linear creative and
    /// `MediaFileSelector` accepts one of its MediaFiles with `criteria` (the same rules the session then selects by).
    ///
    /// Codes (VAST 4.x error table):
    /// - **201** (different linearity expected): the InLine has NonLinear creatives but no Linear one — vplay plays
    ///   linear video only;
    /// - **200** (trafficking: unexpected ad type): neither a Linear nor a NonLinear creative (e.g. companions only);
    /// - **403** (no supported MediaFile): a Linear whose MediaFiles are all unplayable, or that has none at all
    ///   (a missing `<MediaFiles>` or only a `Mezzanine`). 403 rather than 101:
    ///   from the player's side nothing playable was found, which is what 403 reports and what IMA reports too
    ///   (LINEAR_ASSET_MISMATCH); 101 stays for documents the parser cannot use at all.
    /// - **409** (interactive unit not executed): a Linear whose only creative file is an `InteractiveCreativeFile`
    ///   (VAST 4.3 §3.9.3: the player that cannot run it errors with 409; with no MediaFile there is nothing else), or
    ///   whose `InteractiveCreativeFile` has `variableDuration="true"` under the `refuse` policy (SIMID 1.2 §5).
    public func playabilityError(criteria: MediaSelectionCriteria = .init(), variableDuration: VariableDurationPolicy = .refuse) -> VASTError? {
        let label = "ad \(ad.id.map { "\"\($0)\"" } ?? "(no id)")"
        guard let linear else {
            if inLine.creatives.contains(where: { $0.nonLinearAds != nil }) {
                return VASTError(.unexpectedLinearity, "\(label) has only NonLinear creatives; vplay plays linear video",
                                 errorURLs: errorURLs)
            }
            return VASTError(.trafficking, "\(label) has no Linear creative", errorURLs: errorURLs)
        }
        if variableDuration == .refuse, let simid = linear.interactiveCreativeFiles.first(where: { $0.variableDuration == true }) {
            return VASTError(.interactiveCreativeNotExecuted,
                             "\(label): its InteractiveCreativeFile (\(simid.apiFramework ?? "no apiFramework")) has variableDuration=\"true\"; "
                                 + "a player that does not run it must not render the ad (SIMID 1.2 §5; --variable-duration play-media plays its MediaFile)",
                             errorURLs: errorURLs)
        }
        if linear.mediaFiles.isEmpty, let interactive = linear.interactiveCreativeFiles.first {
            return VASTError(.interactiveCreativeNotExecuted,
                             "\(label) has only an InteractiveCreativeFile (\(interactive.apiFramework ?? "no apiFramework")), which vplay does not run, and no MediaFile to play instead",
                             errorURLs: errorURLs)
        }
        do {
            try MediaFileSelector.checkPlayable(linear.mediaFiles, criteria: criteria)
            return nil
        } catch {
            var message = "\(label): \(error.message)"
            if linear.mediaFiles.isEmpty, !linear.mezzanines.isEmpty {
                message += " (only a Mezzanine, which is never played)"
            }
            return VASTError(error.code, message, errorURLs: errorURLs)
        }
    }
}
