import CFFmpeg
import Foundation

/// Creative QA in the decode pass (`MediaOpenOptions.analyzeCreative`): each decoded frame of the first video and
/// the first audio stream is measured as it passes, before its pixels and samples are released, so the checks cost
/// no second decode. One of vplay's named fast places (docs/architecture.md): the meters run over every sample.
struct CreativeAnalysis {
    /// The measurements that are not the meters' (set by the source: the container's layout).
    var report = CreativeReport()
    private var videoStream: Int?
    private var audioStream: Int?
    private var loudness: LoudnessMeter?
    private var picture = PictureScan(), previous = PictureScan()
    private var black = LeaderRun(), frozen = LeaderRun(), silent = LeaderRun()
    private var planes: [[Double]] = []
    /// The sample rate and channel count the loudness meter was made for.
    private var meterFormat: (rate: Int, channels: Int)?

    /// A sample this far from zero is sound: −60 dBFS (FFmpeg `silencedetect`'s default noise level).
    static let silence = 0.001

    /// Measures one decoded frame of stream `stream`, shown from `start` to `end` (seconds on the ad's timeline).
    mutating func add(_ frame: UnsafeMutablePointer<AVFrame>, kind: StreamInfo.Kind, stream: Int, start: Double, end: Double) {
        switch kind {
        case .video:
            if videoStream == nil { videoStream = stream }
            guard videoStream == stream else { return }
            addPicture(frame, start: start, end: end)
        case .audio:
            if audioStream == nil { audioStream = stream }
            guard audioStream == stream else { return }
            addSound(frame, start: start, end: end)
        default: return
        }
    }

    /// The measurements so far.
    var result: CreativeReport {
        var report = report
        report.loudness = loudness?.result
        report.blackStart = black.atStart; report.blackEnd = black.atEnd
        report.frozenStart = frozen.atStart; report.frozenEnd = frozen.atEnd
        report.silentStart = silent.atStart; report.silentEnd = silent.atEnd
        report.silentThroughout = audioStream != nil && silent.throughout
        return report
    }

    private mutating func addPicture(_ frame: UnsafeMutablePointer<AVFrame>, start: Double, end: Double) {
        report.videoFrames += 1
        if frame.pointee.interlaced_frame != 0 { report.interlacedFrames += 1 }
        guard picture.scan(frame) else { return }
        if picture.isBlack {
            black.add(start: start, end: end, holdsUntil: end, holdsFrom: start)
        } else {
            black.add(start: start, end: end, holdsUntil: nil, holdsFrom: nil)
        }
        // The first picture starts a run; each later one continues it when it is the same as the one before.
        if report.videoFrames == 1 || picture.isSame(as: previous) {
            frozen.add(start: start, end: end, holdsUntil: end, holdsFrom: start)
        } else {
            frozen.add(start: start, end: end, holdsUntil: nil, holdsFrom: start)
        }
        swap(&picture, &previous)
    }

    private mutating func addSound(_ frame: UnsafeMutablePointer<AVFrame>, start: Double, end: Double) {
        let raw = frame.pointee
        let channels = Int(raw.ch_layout.nb_channels), count = Int(raw.nb_samples), rate = Int(raw.sample_rate)
        guard channels > 0, count > 0, rate > 0, let read = Self.reader(AVSampleFormat(raw.format)) else { return }
        // BS.1770's filters are defined for audio rates: the shelf sits at 1.7 kHz, so under 8 kHz (and over the
        // 768 kHz any codec uses) there is no loudness to speak of; silence is still tracked.
        if loudness == nil, (8000...768_000).contains(rate) {
            var layout = raw.ch_layout
            let masks = (0..<channels).map { index -> UInt64 in
                let channel = av_channel_layout_channel_from_index(&layout, UInt32(index))
                return channel.rawValue >= 0 && channel.rawValue < 64 ? 1 << UInt64(channel.rawValue) : 0
            }
            loudness = LoudnessMeter(rate: rate, weights: LoudnessMeter.weights(masks: masks))
            meterFormat = (rate, channels)
        }
        if planes.count != channels || planes[0].count < count { planes = Array(repeating: [Double](repeating: 0, count: count), count: channels) }
        // Samples shown: an MP4 edit list can end the last AAC frame early (`end` says where).
        let span = (end - start) * Double(rate)
        let shown = span.isFinite && span > 0 ? Int(min(Double(count), span).rounded()) : count
        var firstLoud: Int?, lastLoud: Int?
        for channel in 0..<channels {
            planes[channel].withUnsafeMutableBufferPointer { out in
                read(frame, channel, channels, count, out)
                for index in 0..<shown where abs(out[index]) > Self.silence {
                    if firstLoud.map({ index < $0 }) ?? true { firstLoud = index }
                    break
                }
                var index = shown - 1
                while index >= 0, abs(out[index]) <= Self.silence { index -= 1 }
                if index >= 0, lastLoud.map({ index > $0 }) ?? true { lastLoud = index }
            }
        }
        // A stream whose rate or layout changes midway is measured in its first format only.
        if meterFormat.map({ $0 == (rate, channels) }) == true { loudness?.add(planes: planes, count: shown) }
        let step = 1 / Double(rate)
        silent.add(start: start, end: end,
                   holdsUntil: firstLoud.map { start + Double($0) * step } ?? end,
                   holdsFrom: lastLoud.map { start + Double($0 + 1) * step } ?? start)
    }

    /// Reads channel `channel` of a frame of `channels` channels and `count` samples into `out`, as −1...1.
    typealias SampleReader = (UnsafeMutablePointer<AVFrame>, Int, Int, Int, UnsafeMutableBufferPointer<Double>) -> Void

    /// The reader for a sample format; nil for one vplay does not measure.
    static func reader(_ format: AVSampleFormat) -> SampleReader? {
        func make<T>(_ type: T.Type, planar: Bool, _ convert: @escaping (T) -> Double) -> SampleReader {
            { frame, channel, channels, count, out in
                let data = frame.pointee.extended_data!
                let plane = UnsafeRawPointer(data[planar ? channel : 0]!).assumingMemoryBound(to: T.self)
                let stride = planar ? 1 : channels, first = planar ? 0 : channel
                for index in 0..<count { out[index] = convert(plane[first + index * stride]) }
            }
        }
        return switch format {
        case AV_SAMPLE_FMT_FLTP: make(Float.self, planar: true) { Double($0) }
        case AV_SAMPLE_FMT_FLT: make(Float.self, planar: false) { Double($0) }
        case AV_SAMPLE_FMT_DBLP: make(Double.self, planar: true) { $0 }
        case AV_SAMPLE_FMT_DBL: make(Double.self, planar: false) { $0 }
        case AV_SAMPLE_FMT_S16P: make(Int16.self, planar: true) { Double($0) / 32768 }
        case AV_SAMPLE_FMT_S16: make(Int16.self, planar: false) { Double($0) / 32768 }
        case AV_SAMPLE_FMT_S32P: make(Int32.self, planar: true) { Double($0) / 2_147_483_648 }
        case AV_SAMPLE_FMT_S32: make(Int32.self, planar: false) { Double($0) / 2_147_483_648 }
        case AV_SAMPLE_FMT_U8P: make(UInt8.self, planar: true) { (Double($0) - 128) / 128 }
        case AV_SAMPLE_FMT_U8: make(UInt8.self, planar: false) { (Double($0) - 128) / 128 }
        default: nil
        }
    }
}
