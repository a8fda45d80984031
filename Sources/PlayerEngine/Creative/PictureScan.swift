import CFFmpeg

/// A decoded picture's luma on a sparse grid (at most 128 × 72 points, evenly spread): enough to tell a black or an
/// unchanged picture, at a cost that does not grow with the picture's size. RGB pictures are not scanned.
struct PictureScan {
    /// Luma samples, scaled to 0...1 of the format's full code range.
    private(set) var samples: [Float] = []
    /// Where black ends, on the same scale: 10 % of the way from black to white (FFmpeg `blackdetect`'s `pix_th`).
    private(set) var blackLevel: Float = 0

    static let columns = 128, rows = 72

    /// Scans `frame`'s luma into `samples`; false for a picture that has no luma plane vplay reads.
    mutating func scan(_ frame: UnsafeMutablePointer<AVFrame>) -> Bool {
        let raw = frame.pointee
        guard raw.width > 0, raw.height > 0, let descriptor = av_pix_fmt_desc_get(AVPixelFormat(raw.format)) else { return false }
        let flags = descriptor.pointee.flags
        guard flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0, flags & UInt64(AV_PIX_FMT_FLAG_HWACCEL) == 0,
              flags & UInt64(AV_PIX_FMT_FLAG_PAL) == 0, flags & UInt64(AV_PIX_FMT_FLAG_BE) == 0,
              descriptor.pointee.nb_components >= 1 else { return false }
        let luma = descriptor.pointee.comp.0
        let depth = Int(luma.depth)
        guard depth >= 1, depth <= 16, let base = Self.plane(raw, Int(luma.plane)) else { return false }
        let lineSize = Int(Self.lineSize(raw, Int(luma.plane)))
        let wide = luma.step > 1 || depth > 8
        let step = Int(luma.step), offset = Int(luma.offset), shift = Int(luma.shift)
        let full = Float((1 << depth) - 1)
        let limited = raw.color_range != AVCOL_RANGE_JPEG && !Self.fullRangeFormats.contains(AVPixelFormat(raw.format))
        let black: Float = limited ? Float(16 << (depth - 8)) : 0
        let white: Float = limited ? Float(235 << (depth - 8)) : full
        blackLevel = (black + 0.1 * (white - black)) / full

        let width = Int(raw.width), height = Int(raw.height)
        let columns = min(Self.columns, width), rows = min(Self.rows, height)
        if samples.count != columns * rows { samples = [Float](repeating: 0, count: columns * rows) }
        samples.withUnsafeMutableBufferPointer { out in
            for row in 0..<rows {
                let y = (row * height + height / 2) / rows
                let line = base + y * lineSize
                for column in 0..<columns {
                    let x = (column * width + width / 2) / columns
                    let value: Int
                    if wide {
                        let pointer = line + x * step + offset
                        value = depth > 8 ? Int(UnsafeRawPointer(pointer).loadUnaligned(as: UInt16.self)) >> shift
                                          : Int(pointer.pointee) >> shift
                    } else {
                        value = Int(line[x])
                    }
                    out[row * columns + column] = Float(value & ((1 << depth) - 1)) / full
                }
            }
        }
        return true
    }

    /// Whether at least 98 % of the points are black (FFmpeg `blackdetect`'s `pic_th`).
    var isBlack: Bool {
        guard !samples.isEmpty else { return false }
        var dark = 0
        for value in samples where value <= blackLevel { dark += 1 }
        return Double(dark) >= 0.98 * Double(samples.count)
    }

    /// Whether `other` is the same picture: the mean absolute difference at most 0.1 % of full range (FFmpeg
    /// `freezedetect`'s `noise` default, −60 dB).
    func isSame(as other: PictureScan) -> Bool {
        guard samples.count == other.samples.count, !samples.isEmpty else { return false }
        var total: Float = 0
        for index in samples.indices { total += abs(samples[index] - other.samples[index]) }
        return total / Float(samples.count) <= 0.001
    }

    static let fullRangeFormats: [AVPixelFormat] = [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ411P]

    static func plane(_ frame: AVFrame, _ index: Int) -> UnsafeMutablePointer<UInt8>? {
        switch index {
        case 0: frame.data.0
        case 1: frame.data.1
        case 2: frame.data.2
        case 3: frame.data.3
        default: nil
        }
    }

    static func lineSize(_ frame: AVFrame, _ index: Int) -> Int32 {
        switch index {
        case 0: frame.linesize.0
        case 1: frame.linesize.1
        case 2: frame.linesize.2
        case 3: frame.linesize.3
        default: 0
        }
    }
}
