import Testing

/// What each IAB sample XML contains, counted from the files with an independent XML parser (Python's
/// ElementTree: `<Ad>`, `<InLine>`, `<Wrapper>`, `<Creative>`, non-empty `<MediaFile>`, `<Companion>`,
/// `<Verification>`, non-empty `<Impression>`, `<NonLinear>`, non-empty `<Tracking>` per `event`) and spot-checked by
/// reading the files. The tests compare the parser with this table, not with itself.
struct IABSampleTruth: Sendable, CustomTestStringConvertible {
    var path: String
    /// `nil` when the file is VAST 1.0 (`<VideoAdServingTemplate>`), which must be rejected with 102.
    var counts: Counts?

    struct Counts: Sendable {
        var ads: Int
        var inLines: Int
        var wrappers: Int
        var creatives: Int
        var mediaFiles: Int
        var companions: Int
        var verifications: Int
        var impressions: Int
        var nonLinears: Int
        var trackingPerEvent: [String: Int]
    }

    var testDescription: String { path }

    static let all: [IABSampleTruth] = [
        IABSampleTruth(path: "vast2/Inline_LinearRegular_VAST2.0.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 2, mediaFiles: 1,
            companions: 1, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: [:])),
        IABSampleTruth(path: "vast2/Inline_LinearVAST2vpaid.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 2, mediaFiles: 1,
            companions: 1, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: [:])),
        IABSampleTruth(path: "vast2/Inline_NonLinear_VAST2.0.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 0,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 1,
            trackingPerEvent: [:])),
        IABSampleTruth(path: "vast2/Inline_NonLinear_Verification_VAST2.0.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 2, mediaFiles: 1,
            companions: 1, verifications: 1, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["verificationNotExecuted": 1])),
        IABSampleTruth(path: "vast2/vast1Nonlinear.xml", counts: nil),
        IABSampleTruth(path: "vast2/vast1RegularLinear.xml", counts: nil),
        IABSampleTruth(path: "vast2/vast1VPAIDLinear.xml", counts: nil),
        IABSampleTruth(path: "vast3/Event_Tracking-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 1,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast3/Inline_Companion_Tag-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 2, mediaFiles: 1,
            companions: 1, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast3/Inline_Linear_Tag-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 1,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast3/Inline_Non-Linear_Tag-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 0,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 1,
            trackingPerEvent: [:])),
        IABSampleTruth(path: "vast3/No_Wrapper_Tag-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 1,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast3/Video_Clicks_and_click_tracking-Inline-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 1,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast3/Wrapper_Tag-test.xml", counts: Counts(
            ads: 1, inLines: 0, wrappers: 1, creatives: 1, mediaFiles: 0,
            companions: 1, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: [:])),
        IABSampleTruth(path: "vast4.0/Ad_Verification-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 3,
            companions: 0, verifications: 2, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.0/Category-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 3,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.0/Conditional_Ad-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 3,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.0/Event_Tracking-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 3,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.0/Inline_Companion_Tag-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 2, mediaFiles: 3,
            companions: 1, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.0/Inline_Linear_Tag-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 3,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.0/Inline_Non-Linear_Tag-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 0,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 1,
            trackingPerEvent: [:])),
        IABSampleTruth(path: "vast4.0/Inline_Simple.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 3,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.0/No_Wrapper_Tag-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 3,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.0/Ready_to_serve_Media_Files_check-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 3,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.0/SSAI_stitching_VPAID_separation-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 1,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.0/SSAI_stitching_mezzanine_file_support-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 3,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.0/Universal_Ad_ID-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 3,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.0/Video_Clicks_and_click_tracking-Inline-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 3,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.0/Viewable_Impression-test.xml", counts: Counts(
            ads: 1, inLines: 0, wrappers: 1, creatives: 1, mediaFiles: 0,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["progress": 1, "start": 1])),
        IABSampleTruth(path: "vast4.0/Wrapper_Tag-test.xml", counts: Counts(
            ads: 1, inLines: 0, wrappers: 1, creatives: 1, mediaFiles: 0,
            companions: 1, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: [:])),
        IABSampleTruth(path: "vast4.1/Ad_Verification-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 3,
            companions: 0, verifications: 2, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.1/Audio_DAAST_Sample.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 3,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.1/Category-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 3,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.1/Closed_Caption_Test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 3,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.1/Conditional_Ad-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 3,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.1/Event_Tracking-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 3,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.1/Inline_Companion_Tag-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 2, mediaFiles: 3,
            companions: 1, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.1/Inline_Linear_Tag-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 3,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.1/Inline_Non-Linear_Tag-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 0,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 1,
            trackingPerEvent: [:])),
        IABSampleTruth(path: "vast4.1/Inline_Simple.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 3,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.1/No_Wrapper_Tag-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 3,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.1/Ready_to_serve_Media_Files_check-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 3,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.1/SSAI_stitching_VPAID_separation-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 1,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.1/SSAI_stitching_mezzanine_file_support-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 3,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.1/Universal_Ad_ID-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 3,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.1/Video_Clicks_and_click_tracking-Inline-test.xml", counts: Counts(
            ads: 1, inLines: 1, wrappers: 0, creatives: 1, mediaFiles: 3,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["complete": 1, "firstQuartile": 1, "midpoint": 1, "progress": 1, "start": 1, "thirdQuartile": 1])),
        IABSampleTruth(path: "vast4.1/Viewable_Impression-test.xml", counts: Counts(
            ads: 1, inLines: 0, wrappers: 1, creatives: 1, mediaFiles: 0,
            companions: 0, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: ["progress": 1, "start": 1])),
        IABSampleTruth(path: "vast4.1/Wrapper_Tag-test.xml", counts: Counts(
            ads: 1, inLines: 0, wrappers: 1, creatives: 1, mediaFiles: 0,
            companions: 1, verifications: 0, impressions: 1, nonLinears: 0,
            trackingPerEvent: [:])),
    ]
}
