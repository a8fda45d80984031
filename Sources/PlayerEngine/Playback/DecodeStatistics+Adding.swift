extension DecodeStatistics {
    /// These statistics followed by `later`'s (a replay decodes the media again): frames, decode errors and bytes
    /// add up per stream; the first time is the earliest, the last time and end are the later pass's.
    public func adding(_ later: DecodeStatistics) -> DecodeStatistics {
        var merged = self
        merged.bytes += later.bytes
        for stream in later.streams {
            guard let index = merged.streams.firstIndex(where: { $0.index == stream.index }) else {
                merged.streams.append(stream)
                continue
            }
            var combined = merged.streams[index]
            combined.frames += stream.frames
            combined.decodeErrors += stream.decodeErrors
            combined.firstTime = [combined.firstTime, stream.firstTime].compactMap { $0 }.min()
            combined.lastTime = stream.lastTime ?? combined.lastTime
            combined.end = stream.end ?? combined.end
            merged.streams[index] = combined
        }
        return merged
    }
}
