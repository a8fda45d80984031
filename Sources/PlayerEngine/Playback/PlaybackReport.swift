
/// What a session measured.
public struct PlaybackReport: Sendable, Equatable {
    /// An empty report: nothing played yet, one play.
    public init() {}

    /// The duration quartiles were computed on.
    public var duration: Duration = .zero
    /// The names of every event fired, in order.
    public var events: [PlaybackEvent.Name] = []
    /// The video played to its end (in the last play).
    public var completed = false
    /// How the ad's play ended; nil when it did not end.
    public var ending: AdPlayback.Ending?
    /// The reward was granted.
    public var rewardGranted = false
    /// Plays of the video: 1, plus one per replay.
    public var plays = 1
    /// Frames of every stream handed to the screen or speaker at their time, over all plays.
    public var framesPresented = 0
    /// Of those, video frames (pictures shown).
    public var videoFramesPresented = 0
    /// Frames presented more than `Configuration.lateThreshold` after their time (real-time modes only; never on a
    /// virtual clock).
    public var framesLate = 0
    /// The worst delay of a frame's presentation after its time.
    public var maxFrameLateness: Duration = .zero
    /// Frames presented more than `Configuration.stallThreshold` late: the picture froze, and the playhead was held.
    public var stalls = 0
    /// Time frozen by stalls (not counted as played).
    public var stallTime: Duration = .zero
    /// Under a simulated network: from the media request to the first picture (nil without one, or when it never
    /// came).
    public var startupDelay: Duration?
    /// Under a simulated network: how many times playback stalled for media (`bufferStart`).
    public var rebuffers = 0
    /// Session time spent in those stalls (not played).
    public var rebufferTime: Duration = .zero
    /// The worst delay between a boundary's due time and its event (0 on a virtual clock).
    public var maxBoundaryLateness: Duration = .zero
    /// Each boundary's delay, in order (for percentiles in real-time runs).
    public var boundaryLateness: [Duration] = []
    /// Session clock at the end.
    public var clock: Duration = .zero
    /// The session was cancelled before it ended.
    public var interrupted = false
    /// How many of the script's steps (in time order) were handled before the ad closed.
    public var stepsHandled = 0
    /// Decode statistics over every play (a replay decodes the media again).
    public var statistics = DecodeStatistics(streams: [])

    /// Frames decoded that were never presented: decoded ahead when the video ended early (skip, close, a
    /// failure, an interruption) or past the ad's duration. vplay never drops a late frame: a late decoder is a
    /// stall instead.
    public var framesNotShown: Int { max(0, statistics.frames - framesPresented) }

    mutating func record(_ event: PlaybackEvent) { events.append(event.name) }

    mutating func present(_ frame: MediaFrame) {
        present(1, videoFrames: frame.type == .video ? 1 : 0)
    }

    /// `count` frames presented, `videoFrames` of them pictures.
    mutating func present(_ count: Int, videoFrames: Int) {
        framesPresented += count
        videoFramesPresented += videoFrames
    }

    mutating func finish(_ machine: AdPlayback, clock: Duration) {
        self.clock = clock
        completed = machine.ending == .completed
        ending = machine.ending
        rewardGranted = machine.rewardGranted
        plays = machine.play
    }
}
