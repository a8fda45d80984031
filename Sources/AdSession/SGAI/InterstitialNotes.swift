/// Attribute findings said as the stream is read.
enum InterstitialNotes {
    static func attributes(_ interstitial: HLSInterstitial, name: String) -> [String] {
        var notes: [String] = []

        if interstitial.occupiesRange {
            notes.append("\(name): X-TIMELINE-OCCUPIES=RANGE: the content's timeline is not changed; its resume offset decides where the content goes on")
        }
        if interstitial.cue == .post, interstitial.resumeOffset != nil {
            notes.append("\(name): X-RESUME-OFFSET on a post-roll has nothing to resume")
        }
        return notes
    }
}
