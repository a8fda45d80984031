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
    public static func unplayableReason(_ file: MediaFile) -> String? {
        if let api = file.apiFramework, api.lowercased().contains("vpaid") {
            return "\(api) apiFramework (interactive JavaScript, not played)"
        }
        if isStreaming(file) { return URLTemplate.isFireable(file.url) ? nil : "empty URL" }
        guard let type = normalizedType(file) else { return "no type attribute" }
        if !playableTypes.contains(type) {
            return "type \(type) is not one of \((playableTypes + hlsTypes.prefix(2) + [dashType]).joined(separator: ", "))"
        }
        if !URLTemplate.isFireable(file.url) { return "empty URL" }
        return nil
    }

    static func normalizedType(_ file: MediaFile) -> String? {
        guard let raw = file.type else { return nil }
        let base = raw.split(separator: ";").first.map(String.init) ?? raw
        let t = base.trimmingCharacters(in: .whitespaces).lowercased()
        return t.isEmpty ? nil : t
    }

    /// Selects from a Linear's files. Throws 403 when no file is playable (or the forced file does not exist).
    /// Whether `forced` (`--media-file`) names one of `files`: by `id`, else by 1-based position.
    public static func names(_ forced: String, in files: [MediaFile]) -> Bool {
        files.contains { $0.id == forced } || Int(forced).map { files.indices.contains($0 - 1) } ?? false
    }

    /// The file to play, by the selection rules, with why and why not each other file.
    /// - Parameter excluding: files already tried (1-based positions in `files`), each with why it was not played
    ///   (a player's fallback to the next file): never chosen again, and listed with that reason. Positions stay the
    ///   tag's, whatever was tried.
    public static func select(from files: [MediaFile], criteria: MediaSelectionCriteria = .init(), excluding: [Int: String] = [:])
        throws(VASTError) -> MediaSelection {
        let indexed = files.enumerated().map { (index: $0.offset + 1, file: $0.element) }
        var rejected: [Int: String] = [:]
        for entry in indexed {
            if let why = excluding[entry.index] ?? unplayableReason(entry.file) { rejected[entry.index] = why }
        }
        var playable = indexed.filter { rejected[$0.index] == nil }
        var passedOver: [Int: String] = [:]
        // Progressive files before streaming manifests (or the reverse with `preferStreaming`): the other kind is a
        // fallback.
        let preferStreaming = criteria.preferStreaming ?? false
        if playable.contains(where: { isStreaming($0.file) }), playable.contains(where: { !isStreaming($0.file) }) {
            let note = preferStreaming ? "playable; an HLS or DASH manifest is preferred (--prefer-streaming)"
                                       : "playable; a progressive file is preferred (HLS and DASH are the fallback; --prefer-streaming)"
            for entry in playable where isStreaming(entry.file) != preferStreaming { passedOver[entry.index] = note }
            playable.removeAll { isStreaming($0.file) != preferStreaming }
        }

        func result(_ chosen: (index: Int, file: MediaFile), _ reason: String) -> MediaSelection {
            let others = indexed.filter { $0.index != chosen.index }.map {
                RejectedMediaFile(index: $0.index, file: $0.file,
                                  reason: rejected[$0.index] ?? passedOver[$0.index] ?? "playable; not chosen (\(describe($0.file)))")
            }
            return MediaSelection(file: chosen.file, index: chosen.index, reason: reason, rejected: others)
        }

        if let forced = criteria.forcedFile {
            // Callers check `names` first; kept as the selector's own answer for direct use.
            if let hit = indexed.first(where: { $0.file.id == forced }) {
                return result(hit, "forced by --media-file \(forced) (id)" + (rejected[hit.index].map { "; warning: \($0)" } ?? ""))
            }
            if let n = Int(forced), let hit = indexed.first(where: { $0.index == n }) {
                return result(hit, "forced by --media-file \(forced) (index)" + (rejected[hit.index].map { "; warning: \($0)" } ?? ""))
            }
            throw VASTError(.noSupportedMediaFile, "no MediaFile with id or index \"\(forced)\" among \(files.count)")
        }
        guard !playable.isEmpty else {
            let why = indexed.map { "#\($0.index): \(rejected[$0.index] ?? "?")" }.joined(separator: "; ")
            throw VASTError(.noSupportedMediaFile, files.isEmpty ? "no MediaFile" : "no playable MediaFile (\(why))")
        }

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
            let chosen = sorted[position]
            return result(chosen, "Adcash quality \(quality.rawValue): file \(position + 1) of \(sorted.count) by bitrate (\(describe(chosen.file)))")
        }

        var pool = playable
        var reasons: [String] = []
        let hasScreen = criteria.screenWidth != nil && criteria.screenHeight != nil
        if let target = criteria.targetBitrateKbps, hasScreen {
            (pool, reasons) = fittingScreen(pool, criteria, reasons)
            (pool, reasons) = byBitrate(pool, target: target, reasons)
            (pool, reasons) = largestArea(pool, reasons)
        } else if let target = criteria.targetBitrateKbps {
            (pool, reasons) = byBitrate(pool, target: target, reasons)
        } else if hasScreen {
            (pool, reasons) = byScreen(pool, criteria, reasons)
            (pool, reasons) = byBitrate(pool, target: nil, reasons)
        } else {
            (pool, reasons) = byBitrate(pool, target: nil, reasons)
            (pool, reasons) = largestArea(pool, reasons)
        }
        let chosen = pool.min { lhs, rhs in
            (typeRank(lhs.file), lhs.index) < (typeRank(rhs.file), rhs.index)
        }!
        if pool.count > 1 { reasons.append("tie broken by MIME preference then document order") }
        return result(chosen, reasons.joined(separator: "; ") + " → #\(chosen.index) (\(describe(chosen.file)))")
    }

    private typealias Entry = (index: Int, file: MediaFile)

    private static func byBitrate(_ pool: [Entry], target: Int?, _ reasons: [String]) -> ([Entry], [String]) {
        let known = pool.filter { $0.file.effectiveBitrate != nil }
        guard !known.isEmpty else { return (pool, reasons + ["no bitrates given"]) }
        let rates = known.map { $0.file.effectiveBitrate! }
        let pick: Int
        var note: String
        if let target {
            if let best = rates.filter({ $0 <= target }).max() {
                pick = best
                note = "highest bitrate ≤ \(target) kbps is \(best) kbps"
            } else {
                pick = rates.min()!
                note = "no bitrate ≤ \(target) kbps; lowest is \(pick) kbps"
            }
        } else {
            pick = rates.max()!
            note = "highest bitrate \(pick) kbps"
        }
        return (known.filter { $0.file.effectiveBitrate == pick }, reasons + [note])
    }

    private static func byScreen(_ pool: [Entry], _ c: MediaSelectionCriteria, _ reasons: [String]) -> ([Entry], [String]) {
        guard let w = c.screenWidth, let h = c.screenHeight else { return (pool, reasons) }
        let screen = MediaFile.saturatingProduct(w, h)
        let known = pool.filter { $0.file.area != nil }
        guard !known.isEmpty else { return (pool, reasons + ["no sizes given"]) }
        let areas = known.map { $0.file.area! }
        if let best = areas.filter({ $0 <= screen }).max() {
            return (known.filter { $0.file.area == best }, reasons + ["largest size within \(w)x\(h)"])
        }
        let smallest = areas.min()!
        return (known.filter { $0.file.area == smallest }, reasons + ["none fits \(w)x\(h); smallest"])
    }

    /// Every file whose area fits the screen; if none does, those of the smallest area.
    private static func fittingScreen(_ pool: [Entry], _ c: MediaSelectionCriteria, _ reasons: [String]) -> ([Entry], [String]) {
        guard let w = c.screenWidth, let h = c.screenHeight else { return (pool, reasons) }
        let screen = MediaFile.saturatingProduct(w, h)
        let known = pool.filter { $0.file.area != nil }
        guard !known.isEmpty else { return (pool, reasons + ["no sizes given"]) }
        let fitting = known.filter { $0.file.area! <= screen }
        if !fitting.isEmpty { return (fitting, reasons + ["\(fitting.count) of \(pool.count) fit \(w)x\(h)"]) }
        let smallest = known.map { $0.file.area! }.min()!
        return (known.filter { $0.file.area == smallest }, reasons + ["none fits \(w)x\(h); smallest"])
    }

    /// The files of the largest known area (all of them when no size is known). Silent: a tie-break.
    private static func largestArea(_ pool: [Entry], _ reasons: [String]) -> ([Entry], [String]) {
        let largest = pool.compactMap(\.file.area).max()
        guard let largest else { return (pool, reasons) }
        return (pool.filter { $0.file.area == largest }, reasons)
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
