/// Chooses the MediaFile vplay plays (FFmpeg: a progressive file, an HLS playlist or a DASH manifest).
///
/// **Playable**: `type` (parameters ignored, case-insensitive) is one of `playableTypes`, `hlsTypes` or `dashType`
/// (or the URL's path ends in `.m3u8` or `.mpd`); `apiFramework` is not VPAID. `delivery` is a hint, not a filter: a
/// progressive file labelled `streaming` plays (ad servers label plain MP4s so), and so does an HLS playlist labelled
/// `progressive`.
/// Mezzanine files are never candidates (they are not MediaFiles; the spec forbids playing them).
///
/// **Progressive first**: when both progressive files and streaming manifests (HLS, DASH) are playable, only the
/// progressive files are candidates (`preferStreaming` turns this round): one request, one decode, the file the
/// advertiser made, where an adaptive ladder is a platform's re-encoding of it, and nothing nested for vplay to police.
///
/// **Choice** among playable files, in this order (first rule that applies):
/// 1. `forcedFile`: by `id`, else by 1-based index; overrides everything.
/// 2. `adcashQuality`: sort by (bitrate, area, document order) ascending; low = first, high = last,
///    mid = element `(n - 1) / 2` (the lower middle when n is even).
/// 3. `targetBitrateKbps` and a screen size: keep the files that fit the screen (area ≤ the screen's; if none fits,
///    the smallest), then the highest bitrate ≤ target among them (else their lowest), then the largest area.
///    So a file that meets both the bandwidth and the screen always wins over one that meets only the bandwidth.
/// 4. `targetBitrateKbps` only: the highest bitrate ≤ target, else the lowest bitrate.
/// 5. screen size only: the largest area ≤ the screen's, else the smallest; then the highest bitrate.
/// 6. nothing given: the highest bitrate, then the largest area.
///
/// Files without a bitrate (or a size) are only used by a bitrate (size) rule when no file has one.
///
/// Remaining ties: MIME preference in `playableTypes` order (mp4 first), then document order.
///
/// **Ranking** (`rank`): the order a player tries the files in, chosen once: the file the rules choose, then the one
/// they choose among the rest (the kind preference applied again to what is left), and so on. Each candidate carries
/// its reason as a value (`MediaChoiceReason`, `MediaRuleStep`), and each file not played its own
/// (`MediaFileRejection`); the report renders them.
public enum MediaFileSelector {
    /// MIME types FFmpeg plays as progressive files, in order of preference for tie-breaks.
    public static let playableTypes = ["video/mp4", "video/webm", "video/quicktime", "video/x-m4v", "video/3gpp"]

    /// MIME types of HLS playlists (played through FFmpeg's `hls` demuxer, one variant chosen by the same rules).
    public static let hlsTypes = ["application/x-mpegurl", "application/vnd.apple.mpegurl", "audio/mpegurl", "audio/x-mpegurl"]
    /// MIME type of a DASH manifest (played as one video and one audio representation, chosen by the same rules).
    public static let dashType = "application/dash+xml"

    /// Whether `file` is an HLS playlist: an HLS MIME type, or a URL whose path ends in `.m3u8` (whatever its type).
    public static func isHLS(_ file: MediaFile) -> Bool {
        if let type = normalizedType(file), hlsTypes.contains(type) { return true }
        return pathEnds(file, with: ".m3u8")
    }

    /// Whether `file` is a DASH manifest: the DASH MIME type, or a URL whose path ends in `.mpd` (whatever its type).
    public static func isDASH(_ file: MediaFile) -> Bool {
        normalizedType(file) == dashType || pathEnds(file, with: ".mpd")
    }

    /// Whether `file` is a streaming manifest (HLS or DASH), opened with a representation choice.
    public static func isStreaming(_ file: MediaFile) -> Bool { isHLS(file) || isDASH(file) }

    private static func pathEnds(_ file: MediaFile, with suffix: String) -> Bool {
        let path = file.url.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "?", maxSplits: 1).first ?? ""
        return path.lowercased().hasSuffix(suffix)
    }

    /// Why `file` cannot be played, or `nil` when it can.
    public static func unplayable(_ file: MediaFile) -> UnplayableMedia? {
        if let api = file.apiFramework, api.lowercased().contains("vpaid") { return .interactive(apiFramework: api) }
        if isStreaming(file) { return URLTemplate.isFireable(file.url) ? nil : .emptyURL }
        guard let type = normalizedType(file) else { return .noType }
        if !playableTypes.contains(type) { return .unsupportedType(type) }
        if !URLTemplate.isFireable(file.url) { return .emptyURL }
        return nil
    }

    /// The MIME type in lower case, parameters dropped; nil when absent or empty.
    public static func normalizedType(_ file: MediaFile) -> String? {
        guard let raw = file.type else { return nil }
        let base = raw.split(separator: ";").first.map(String.init) ?? raw
        let t = base.trimmingCharacters(in: .whitespaces).lowercased()
        return t.isEmpty ? nil : t
    }

    /// Whether `forced` (`--media-file`) names one of `files`: by `id`, else by 1-based position.
    public static func names(_ forced: String, in files: [MediaFile]) -> Bool {
        files.contains { $0.id == forced } || Int(forced).map { files.indices.contains($0 - 1) } ?? false
    }

    /// The best file by the rules, with why and why not each other file: `rank`'s first.
    public static func select(from files: [MediaFile], criteria: MediaSelectionCriteria = .init()) throws(VASTError) -> MediaSelection {
        try rank(files, criteria: criteria).selection(at: 0)
    }

    /// Throws what `rank` throws (403: no file is playable, or the forced file does not exist), without ranking.
    public static func checkPlayable(_ files: [MediaFile], criteria: MediaSelectionCriteria = .init()) throws(VASTError) {
        _ = try start(files, criteria: criteria)
    }

    /// Every playable file in the order a player tries them: the file the rules choose, then the one they choose
    /// once it (and its copies) are set aside, and so on. Under `forcedFile`, that file alone, playable or not.
    /// Throws 403 when no file is playable (or the forced file does not exist).
    public static func rank(_ files: [MediaFile], criteria: MediaSelectionCriteria = .init()) throws(VASTError) -> MediaRanking {
        let (unplayable, forced) = try start(files, criteria: criteria)
        var pool = files.enumerated().map { (index: $0.offset + 1, file: $0.element) }.filter { unplayable[$0.index] == nil }
        if let forced {
            let candidate = MediaCandidate(index: forced.index, file: files[forced.index - 1],
                                           why: .forced(criteria.forcedFile!, byID: forced.byID, warning: unplayable[forced.index]),
                                           preferStreaming: kindPreferred(in: pool, criteria))
            return MediaRanking(files: files, candidates: [candidate], unplayable: unplayable)
        }
        var candidates: [MediaCandidate] = []
        while !pool.isEmpty {
            let preferStreaming = kindPreferred(in: pool, criteria)
            let (chosen, why) = choose(among: pool.filter { preferStreaming == nil || isStreaming($0.file) == preferStreaming }, criteria)
            candidates.append(MediaCandidate(index: chosen.index, file: chosen.file, why: why, preferStreaming: preferStreaming))
            // A file listed twice is not tried twice.
            pool.removeAll { $0.file == chosen.file }
        }
        return MediaRanking(files: files, candidates: candidates, unplayable: unplayable)
    }

    /// Why each file is unplayable, and the forced file's position; or the 403 of no candidate.
    private static func start(_ files: [MediaFile], criteria: MediaSelectionCriteria) throws(VASTError)
        -> (unplayable: [Int: UnplayableMedia], forced: (index: Int, byID: Bool)?) {
        var unplayable: [Int: UnplayableMedia] = [:]
        for (offset, file) in files.enumerated() { unplayable[offset + 1] = Self.unplayable(file) }
        if let forced = criteria.forcedFile {
            // Callers check `names` first; kept as the selector's own answer for direct use.
            if let hit = files.firstIndex(where: { $0.id == forced }) { return (unplayable, (hit + 1, true)) }
            if let n = Int(forced), files.indices.contains(n - 1) { return (unplayable, (n, false)) }
            throw VASTError(.noSupportedMediaFile, "no MediaFile with id or index \"\(forced)\" among \(files.count)")
        }
        guard unplayable.count < files.count else {
            let why = files.indices.map { "#\($0 + 1): \(unplayable[$0 + 1]!)" }.joined(separator: "; ")
            throw VASTError(.noSupportedMediaFile, files.isEmpty ? "no MediaFile" : "no playable MediaFile (\(why))")
        }
        return (unplayable, nil)
    }

    /// Progressive files before streaming manifests (or the reverse with `preferStreaming`): when `pool` holds both
    /// kinds, whether the streaming kind is the one kept; nil when it holds one.
    private static func kindPreferred(in pool: [Entry], _ criteria: MediaSelectionCriteria) -> Bool? {
        guard pool.contains(where: { isStreaming($0.file) }), pool.contains(where: { !isStreaming($0.file) }) else { return nil }
        return criteria.preferStreaming ?? false
    }

    /// The file the rules choose among `playable` (not empty), and why.
    private static func choose(among playable: [Entry], _ criteria: MediaSelectionCriteria) -> (Entry, MediaChoiceReason) {
        if let quality = criteria.adcashQuality {
            let sorted = playable.sorted { lhs, rhs in
                ((lhs.file.effectiveBitrate ?? 0), (lhs.file.area ?? 0), lhs.index)
                    < ((rhs.file.effectiveBitrate ?? 0), (rhs.file.area ?? 0), rhs.index)
            }
            let position: Int
            switch quality {
            case .low: position = 0
            case .mid: position = (sorted.count - 1) / 2
            case .high: position = sorted.count - 1
            }
            return (sorted[position], .adcashQuality(quality, position: position, count: sorted.count))
        }
        var pool = playable
        var steps: [MediaRuleStep] = []
        let hasScreen = criteria.screenWidth != nil && criteria.screenHeight != nil
        if let target = criteria.targetBitrateKbps, hasScreen {
            (pool, steps) = fittingScreen(pool, criteria, steps)
            (pool, steps) = byBitrate(pool, target: target, steps)
            (pool, steps) = largestArea(pool, steps)
        } else if let target = criteria.targetBitrateKbps {
            (pool, steps) = byBitrate(pool, target: target, steps)
        } else if hasScreen {
            (pool, steps) = byScreen(pool, criteria, steps)
            (pool, steps) = byBitrate(pool, target: nil, steps)
        } else {
            (pool, steps) = byBitrate(pool, target: nil, steps)
            (pool, steps) = largestArea(pool, steps)
        }
        let chosen = pool.min { lhs, rhs in
            (typeRank(lhs.file), lhs.index) < (typeRank(rhs.file), rhs.index)
        }!
        return (chosen, .rules(steps, tieBroken: pool.count > 1))
    }

    private typealias Entry = (index: Int, file: MediaFile)

    private static func byBitrate(_ pool: [Entry], target: Int?, _ steps: [MediaRuleStep]) -> ([Entry], [MediaRuleStep]) {
        let known = pool.filter { $0.file.effectiveBitrate != nil }
        guard !known.isEmpty else { return (pool, steps + [.noBitrates]) }
        let rates = known.map { $0.file.effectiveBitrate! }
        let step: MediaRuleStep
        let pick: Int
        if let target {
            if let best = rates.filter({ $0 <= target }).max() {
                (pick, step) = (best, .highestBitrateWithin(target: target, kbps: best))
            } else {
                pick = rates.min()!
                step = .lowestBitrateOver(target: target, kbps: pick)
            }
        } else {
            pick = rates.max()!
            step = .highestBitrate(kbps: pick)
        }
        return (known.filter { $0.file.effectiveBitrate == pick }, steps + [step])
    }

    private static func byScreen(_ pool: [Entry], _ c: MediaSelectionCriteria, _ steps: [MediaRuleStep]) -> ([Entry], [MediaRuleStep]) {
        guard let w = c.screenWidth, let h = c.screenHeight else { return (pool, steps) }
        let screen = MediaFile.saturatingProduct(w, h)
        let known = pool.filter { $0.file.area != nil }
        guard !known.isEmpty else { return (pool, steps + [.noSizes]) }
        let areas = known.map { $0.file.area! }
        if let best = areas.filter({ $0 <= screen }).max() {
            return (known.filter { $0.file.area == best }, steps + [.largestSizeWithin(width: w, height: h)])
        }
        let smallest = areas.min()!
        return (known.filter { $0.file.area == smallest }, steps + [.smallestSizeOver(width: w, height: h)])
    }

    /// Every file whose area fits the screen; if none does, those of the smallest area.
    private static func fittingScreen(_ pool: [Entry], _ c: MediaSelectionCriteria, _ steps: [MediaRuleStep]) -> ([Entry], [MediaRuleStep]) {
        guard let w = c.screenWidth, let h = c.screenHeight else { return (pool, steps) }
        let screen = MediaFile.saturatingProduct(w, h)
        let known = pool.filter { $0.file.area != nil }
        guard !known.isEmpty else { return (pool, steps + [.noSizes]) }
        let fitting = known.filter { $0.file.area! <= screen }
        if !fitting.isEmpty { return (fitting, steps + [.fitting(count: fitting.count, of: pool.count, width: w, height: h)]) }
        let smallest = known.map { $0.file.area! }.min()!
        return (known.filter { $0.file.area == smallest }, steps + [.smallestSizeOver(width: w, height: h)])
    }

    /// The files of the largest known area (all of them when no size is known). Silent: a tie-break.
    private static func largestArea(_ pool: [Entry], _ steps: [MediaRuleStep]) -> ([Entry], [MediaRuleStep]) {
        let largest = pool.compactMap(\.file.area).max()
        guard let largest else { return (pool, steps) }
        return (pool.filter { $0.file.area == largest }, steps)
    }

    private static func typeRank(_ file: MediaFile) -> Int {
        normalizedType(file).flatMap { playableTypes.firstIndex(of: $0) } ?? playableTypes.count
    }

    static func describe(_ file: MediaFile) -> String {
        var parts: [String] = []
        if let id = file.id { parts.append("id \(id)") }
        if let t = file.type { parts.append(t) }
        if let b = file.effectiveBitrate { parts.append("\(b) kbps") }
        if let w = file.width, let h = file.height { parts.append("\(w)x\(h)") }
        return parts.joined(separator: ", ")
    }
}
