import PlayerEngine

extension FleetOracle {
    /// What a simulated network does to a viewer's play, worked out from the media's frames and the download (not
    /// from a run): whether the media is ready within the media timeout, and the stalls of a play nobody interrupts.
    /// A fleet's scenarios interrupt at most once, and the first interruption comes before anything else changes the
    /// play, so the playhead it lands on is that of the uninterrupted play at its clock time.
    public struct Network: Sendable, Equatable {
        /// One stall: from the clock time and playhead it began at, to when it ended (nil: the media never came).
        public struct Stall: Sendable, Equatable {
            /// Session clock when the stall began.
            public var clock: Duration
            /// The playhead it held at.
            public var playhead: Duration
            /// Session clock when it ended; nil when the media never came.
            public var end: Duration?
        }

        /// The media is ready to play within the media timeout; otherwise the session fails with 402 and plays nothing.
        public var loads: Bool
        /// The stalls of an uninterrupted play, in order.
        public var stalls: [Stall]

        /// - Parameters:
        ///   - frames: the presentation times of the frames after the first picture (which shows at 0, at startup).
        ///   - duration: the video's duration; frames at or after it are not played.
        public init(frames: [Duration], duration: Duration, delivery: MediaDelivery, mediaTimeout: Duration) {
            loads = delivery.isReady(within: mediaTimeout)
            var stalls: [Stall] = []
            var stalled: Duration = .zero
            if loads {
                for frame in frames.sorted() where frame < duration {
                    let due = frame + stalled
                    guard let available = delivery.available(through: frame) else {
                        stalls.append(Stall(clock: due, playhead: frame, end: nil))
                        break
                    }
                    guard available > due else { continue }
                    guard let ready = delivery.available(through: frame + delivery.rebuffer) else {
                        stalls.append(Stall(clock: due, playhead: frame, end: nil))
                        break
                    }
                    let end = max(ready, due)
                    stalls.append(Stall(clock: due, playhead: frame, end: end))
                    stalled += end - due
                }
            }
            self.stalls = stalls
        }

        /// The playhead at session clock `clock` of an uninterrupted play.
        public func playhead(atClock clock: Duration) -> Duration {
            var stalled: Duration = .zero
            for stall in stalls {
                guard stall.clock <= clock else { break }
                guard let end = stall.end, end <= clock else { return stall.playhead }
                stalled += end - stall.clock
            }
            return clock - stalled
        }

        /// How far the playhead ever gets: the duration, or where the media stopped arriving for good.
        public func reach(duration: Duration) -> Duration {
            stalls.last.flatMap { $0.end == nil ? $0.playhead : nil } ?? duration
        }
    }
}
