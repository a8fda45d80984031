import Networking
import Primitives
import Foundation
import BeaconSink
import PlayerEngine
import TrackingBeacons
import VAST

/// Everything one ad session is configured with: the single place the CLI (or a library user) sets.
public struct SessionConfiguration: Sendable {
    /// How time passes during playback.
    public enum ClockMode: Sendable, Equatable {
        /// As fast as decoding allows, with exact simulated times (the default; what CI wants).
        case virtual
        /// Real time, `speed` × faster (1 = real time).
        case realtime(speed: Double)
    }

    /// The tag the user named: a file path, a `file:` URL or an http(s) URL.
    public var tag: String
    /// Expand and log every tracking URL, send nothing.
    public var dryRun = false
    /// Which hosts tags, wrappers, media and beacons may be requested from (`--deny-private-networks`,
    /// `--deny-loopback`); every URL is checked (`URLGate`) whatever this says.
    public var addressPolicy = AddressPolicy.open
    /// How time passes during playback: virtual (the default) or real time at a speed.
    public var clock: ClockMode = .virtual
    /// Seeds `[CACHEBUSTING]` (and, later, scenario draws) so a run is reproducible.
    public var seed: UInt64 = 1
    /// Wall time at the first frame, ms since 1970, for `[TIMESTAMP]`; nil reads the machine's clock once at start.
    public var now: Int64?
    /// The simulated device's offset from UTC in minutes, shown in `[TIMESTAMP]` (`+09:00` is 540). The CLI takes it
    /// from the offset `--now` is written with (`MacroFormat.utcOffsetMinutes(ofISO8601:)`); 0 (UTC) otherwise.
    public var timeZoneOffsetMinutes = 0
    /// `--map PREFIX=DIR`: URLs under PREFIX (tags and media) are read from DIR, for offline replay.
    public var mappings: [URLMapping] = []
    /// How the media file is chosen among the Linear's (bitrate, screen size, a named file, …).
    public var mediaCriteria = MediaSelectionCriteria()
    /// A simulated network for the media download (`--network`); nil: the media arrives as fast as it is read.
    public var network: NetworkConditions?
    /// Wrapper-chain limits and pod handling for resolving the tag.
    public var resolver = ResolverConfiguration()
    /// Timeout, retries, backoff and concurrency of beacon requests.
    public var beaconPolicy = BeaconPolicy()
    /// How long the end of a session waits for beacons still in flight.
    public var beaconDrain: Duration = .seconds(10)
    /// `--display-deadline`: the most time from the ad request to its first frame shown, else 304 (`DisplayDeadline`);
    /// nil: none (the default: IMA and Media3 set no such limit of their own; an app sets one).
    public var displayDeadline: Duration?
    /// Values for device and app macros (`DEVICEUA`, `APPBUNDLE`, `IFA`, `LIMITADTRACKING`, `PLAYERSIZE`, …), raw;
    /// list macros (`PLAYERSIZE`, `PLAYERCAPABILITIES`) are written comma-separated and encoded element by element.
    /// `DEVICEUA` is the User-Agent (`userAgent`).
    public var deviceMacros: [String: String] = SessionConfiguration.defaultDeviceMacros
    /// Decoder threads (0 = one per core, like ffmpeg).
    public var decoderThreads = 0
    /// Start the embedded beacon sink on a free loopback port and send beacons in this scope to it; at the end,
    /// reconcile fired against received.
    public var sink: SinkRouting.Scope?
    /// Faults the sink plays for matching paths (`500@/midpoint`, `delay=2s@/start`, `reset@*`, `500x1@/complete`).
    public var sinkFaults: [SinkFault] = []
    /// A fleet's `--sink-log FILE`: every hit at the embedded sink streamed to a JSON Lines file as it arrives (the
    /// fleet's sink keeps none in memory). nil: none written.
    public var sinkLog: String?
    /// `--collector URL`: send every tracking URL to this running collector (a `vplay sink` Service, the user's
    /// own) instead of its host, path and query kept, as `--sink-all` does to the embedded sink. Its host is given
    /// by the operator, so the address policy does not apply to it. No reconciliation: vplay cannot see its hits.
    public var collector: String?
    /// The HTTP proxy for tags, media and beacons (`--proxy`, `HTTP_PROXY`, `HTTPS_PROXY`, `NO_PROXY`).
    public var proxy = ProxySettings.direct

    /// `--adcash-state FILE`: choose the media quality by the Adcash rule from the last download saved there, time
    /// this download, and save it for the next run.
    public var adcashStatePath: String?

    /// Scripted user and OS actions.
    public var script = SessionScript()
    /// The reward when the tag has no rewarded extension (or to override it); nil uses the tag's.
    public var reward: Reward?
    /// `--reward-callback`: when the reward is granted, a signed server-to-server callback goes to this endpoint
    /// (AdMob server-side verification), signed with the key of `seed` (`RewardSigner`).
    public var rewardCallback: RewardCallback?
    /// When the reward is granted (`.complete` by default); passed to `PlaybackRules.rewardThreshold`.
    public var rewardThreshold: PlaybackRules.RewardThreshold = .complete
    /// When the viewer may close the video before it ends (`.anytime` by default); passed to
    /// `PlaybackRules.videoClose`.
    public var videoClose: PlaybackRules.VideoClose = .anytime
    /// Whether the end card is shown after a skip too, as after completion; passed to `PlaybackRules.endCardAfterSkip`.
    public var endCardAfterSkip = true
    /// Before the end card's close control appears (`closeDelayLeft`).
    public var closeDelay: Duration = .zero
    /// Vetoes for library users (the SAS SDK's vetoable `willClose` and `willBeginAction`): given the playhead,
    /// return false to refuse. A refused close or click-through is a `rejected` event, as a real UI would do.
    public var willClose: (@Sendable (Duration) -> Bool)?
    /// The veto for click-throughs (video and icon clicks): given the playhead, return false to refuse; nil allows all.
    public var willBeginClickThrough: (@Sendable (Duration) -> Bool)?
    /// Beacons for pause, resume, mute and unmute: on every occurrence, or only the first of each (IMA's HTML5 SDK
    /// pings those URLs once "to prevent polluting ad server logs").
    public var repeatTracking: RepeatTracking = .every
    /// Whether a replay (a new play) fires the one-shot tracking (impression, start, quartiles…) again.
    public var replayTracking: ReplayTracking = .none

    /// `--pod`: play every ad of an ad pod (`all`, the default), or only the first that can play (`first`, what
    /// vplay did before pods).
    public var pod: PodPlayback = .all
    /// The ad break the session plays in (`--break-position`, `--break-max-…`): its macros, and the limits that cut
    /// a pod short with error 206.
    public var breakRequest = BreakRequest()

    /// The request's macro values: the break's (`breakRequest.macros`) and the device's, a `--macro` winning.
    public var requestMacros: [String: String] {
        var macros = breakRequest.macros.merging(deviceMacros) { _, device in device }
        if let serverSide {
            // The stitcher asks and beacons on the device's behalf (the IAB macros: SERVERSIDE 1).
            macros["SERVERSIDE"] = "1"
            macros["DEVICEIP"] = deviceMacros["DEVICEIP"] ?? serverSide.deviceIP
            macros["SERVERUA"] = deviceMacros["SERVERUA"] ?? serverSide.serverUserAgent
        }
        return macros
    }

    /// Server-side mode (`--ssai server`): vplay is the stitcher, its timed beacons fired at segment requests with
    /// the device's `X-Device-*` headers; nil: the player fires its own (client-side).
    public var serverSide: ServerSideInsertion?

    /// Whether a session plays every ad of a pod (`all`) or only the first that can play (`first`).
    public enum PodPlayback: String, Sendable, CaseIterable { case all, first }

    /// `--viewability`: whether `<ViewableImpression>` is decided, and how.
    public var viewability: ViewabilityMode = .auto

    /// How the session decides `<ViewableImpression>` for its ads; mapped to `PlaybackRules.Viewability` per ad.
    public enum ViewabilityMode: String, Sendable, CaseIterable {
        /// Measured (the MRC rule on the scripted geometry) for an ad whose chain has `<ViewableImpression>` URLs;
        /// off for the others, so their output is what it was.
        case auto
        /// `viewable` or `notViewable` for every ad, by the MRC rule.
        case measured
        /// `viewUndetermined` when each ad's execution ends: the honest answer of a player that measures nothing.
        case undetermined
        /// No viewability events for any ad.
        case off
    }

    /// `--verification-allow`: the verification vendors the player runs; one not on the list is rejected
    /// (`verificationNotExecuted` with `[REASON]` 1). nil: no list (every vendor gets 2, "not supported").
    public var verificationAllow: [String]?
    /// `--verification-probe`: fetch (never run) each verification's JavaScriptResource; one that cannot be loaded
    /// (a 404, a timeout, a malformed URL) gets `[REASON]` 3.
    public var verificationProbe = false

    /// The ad break as the ad request describes it: where it sits and its limits (VAST 4.2 break macros).
    public struct BreakRequest: Sendable, Equatable {
        /// `[BREAKPOSITION]`: 1 pre-roll, 2 mid-roll, 3 post-roll, 4 stand-alone (a rewarded ad: the default).
        public var position = 4
        /// `[BREAKMAXDURATION]`: ads that would end the pod after this much media are not played (206).
        public var maxDuration: Duration?
        /// `[BREAKMAXADS]`: ads after this many are not played (206).
        public var maxAds: Int?
        /// `[BREAKMINADLENGTH]`, `[BREAKMAXADLENGTH]`: an ad whose media is shorter or longer is not played (206)
        /// and its place is offered to a substitute.
        public var minAdLength: Duration?
        /// The `[BREAKMAXADLENGTH]` limit; see `minAdLength`.
        public var maxAdLength: Duration?

        /// A stand-alone break (position 4) with no limits.
        public init() {}

        /// The break macros this break fills (`BREAKPOSITION` always; each limit when set), in whole seconds where
        /// whole (`30`, `7.5`).
        public var macros: [String: String] {
            var values = ["BREAKPOSITION": String(position)]
            func seconds(_ value: Duration) -> String {
                let ms = value.components.seconds * 1000 + value.components.attoseconds / 1_000_000_000_000_000
                return ms % 1000 == 0 ? String(ms / 1000) : String(format: "%.3f", Double(ms) / 1000)
                    .replacingOccurrences(of: #"0+$"#, with: "", options: .regularExpression)
            }
            if let maxDuration { values["BREAKMAXDURATION"] = seconds(maxDuration) }
            if let maxAds { values["BREAKMAXADS"] = String(maxAds) }
            if let minAdLength { values["BREAKMINADLENGTH"] = seconds(minAdLength) }
            if let maxAdLength { values["BREAKMAXADLENGTH"] = seconds(maxAdLength) }
            return values
        }
    }

    /// Which occurrences of pause, resume, mute and unmute fire their beacons: `every` one, or only the `first` of
    /// each.
    public enum RepeatTracking: String, Sendable, CaseIterable { case every, first }
    /// Whether a replay fires the one-shot tracking again (`all`) or not (`none`).
    public enum ReplayTracking: String, Sendable, CaseIterable { case none, all }

    /// Sent as `Origin` with every tag request, as a web player's browser sends its page's; nil (a session's) sends
    /// none. `lint` sets it to check each tag's CORS answer (`VPLAY-tag-cors`).
    public var tagOrigin: String?

    /// `--base DIR`: relative URLs of a tag file resolve against this folder instead of the file's own (a tag pasted
    /// into the studio, saved away from its media); nil: the file's folder.
    public var tagBase: String?
    /// Keeps every tag document the session fetches, as fetched (`--bundle`).
    public var tagRecorder: TagRecorder?
    /// `--bid`: the tag is an OpenRTB bid response; its winning bid's markup plays and its notices fire
    /// (`BidSource`). `tag` is then the response's location.
    public var bid: BidSource?
    /// Tag documents answered from a run bundle before anything else is asked (`--replay`).
    public var replayDocuments: [RecordedTag] = []

    /// The simulated device's User-Agent, sent with beacons and tag requests and filled into `[DEVICEUA]`: one
    /// source of truth, stored as `deviceMacros["DEVICEUA"]`, so `--macro DEVICEUA=…` changes the header too.
    public var userAgent: String {
        get { deviceMacros["DEVICEUA"] ?? Self.defaultUserAgent }
        set { deviceMacros["DEVICEUA"] = newValue }
    }

    /// The User-Agent of vplay's simulated phone.
    public static let defaultUserAgent = "vplay/\(VPlayVersion.current) (headless rewarded-video player; simulated iPhone; iOS 17.0)"

    /// A configuration for `tag` (a file path, a `file:` URL or an http(s) URL) with every other setting at its
    /// default.
    public init(tag: String) { self.tag = tag }

    /// The session's id and `[TRANSACTIONID]` for `seed` (a fleet's session gives its own): deterministic for the
    /// same seed, tag and options, distinct when any differs. From the seed alone, every fixed-seed CI run of every
    /// tag shared one id.
    public func transactionID(seed: UInt64) -> String { TransactionID.make(seed: seed ^ identity) }

    /// The session's id for its own `seed`.
    public var transactionID: String { transactionID(seed: seed) }

    /// A stable 64-bit digest (FNV-1a) of the tag and of the options that change what a session does or sends; the
    /// same on every machine and in every process (Swift's `Hasher` is seeded per process, so it is not used).
    public var identity: UInt64 {
        var parts: [String] = [tag, "\(dryRun)", "\(clock)", now.map { "\($0)" } ?? "-", "\(timeZoneOffsetMinutes)", "\(mediaCriteria)"]
        parts.append(network.map { "\($0.profile.name)" } ?? "-")
        parts.append(script.steps.map(\.text).joined(separator: ","))
        if !script.loadSteps.isEmpty { parts.append(script.loadSteps.map(\.text).joined(separator: ",")) }
        parts.append(reward.map { "\($0)" } ?? "-")
        parts += ["\(rewardThreshold)", "\(videoClose)", sink.map { "\($0)" } ?? "-", collector ?? "-"]
        parts += ["\(repeatTracking)", "\(replayTracking)", "\(pod)", "\(viewability)"]
        parts += [(verificationAllow ?? ["-"]).joined(separator: ","), "\(verificationProbe)"]
        parts += requestMacros.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        // Added only when not the default, so every id made before the option stays as it was.
        if let displayDeadline { parts.append("displayDeadline=\(displayDeadline.components)") }
        if resolver.variableDuration != .refuse { parts.append("variableDuration=\(resolver.variableDuration.rawValue)") }
        if let bid { parts.append("bid=\(bid.price),\(bid.billing.rawValue)") }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for part in parts {
            for byte in part.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            hash = (hash ^ 0x1F) &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// `--network` and its thresholds: how the media's bytes arrive, and when a player starts, restarts and gives up.
    public struct NetworkConditions: Sendable, Equatable {
        /// How the media's bytes arrive: latency and rate over time.
        public var profile: NetworkProfile
        /// Media buffered before the first frame (`--startup-buffer`, default 1 s: Media3's).
        public var startupBuffer: Duration = MediaDelivery.defaultStartupBuffer
        /// Media buffered before playback restarts after a stall (`--rebuffer`, default 2 s: Media3's).
        public var rebuffer: Duration = MediaDelivery.defaultRebuffer
        /// The media must be ready to play this long after its request, else 402 and the next file (`--media-timeout`,
        /// default 8 s: IMA's `loadVideoTimeout`).
        public var mediaTimeout: Duration = defaultMediaTimeout
        /// The default `mediaTimeout`: 8 s, IMA's `loadVideoTimeout`.
        public static let defaultMediaTimeout: Duration = .seconds(8)
        /// A stall longer than this fails the ad with 402 (`--stall-timeout`); nil (default): no limit, as IMA
        /// documents none.
        public var stallTimeout: Duration?

        /// Conditions for `profile` with the default thresholds (1 s startup buffer, 2 s rebuffer, 8 s media timeout,
        /// no stall limit).
        public init(profile: NetworkProfile) { self.profile = profile }
    }

    /// A simulated phone in portrait rewarded placement; every value can be overridden with `--macro NAME=VALUE`.
    public static let defaultDeviceMacros: [String: String] = [
        "DEVICEUA": defaultUserAgent,
        "APPBUNDLE": "com.example.vplay",
        "LIMITADTRACKING": "0",
        "IFA": "00000000-0000-0000-0000-000000000000",
        "IFATYPE": "idfa",
        "PLAYERSIZE": "390,844",
        "PLACEMENTTYPE": "5",
        "INVENTORYSTATE": "optin",
        "PLAYERCAPABILITIES": "skip,mute",
        "SERVERSIDE": "0",
        "PAGEURL": "0",
        "CLICKTYPE": "1",
        // The MIME types vplay plays, which it knows (it sent -1): ad servers use it on the tag request.
        "MEDIAMIME": MediaFileSelector.playableTypes.joined(separator: ","),
        // What else vplay knows of itself (each sent -1 before). The VAST versions it reads (AdCOM codes).
        "VASTVERSIONS": VASTParser.adcomVersionCodes.map(String.init).joined(separator: ","),
        // The API frameworks (VPAID, MRAID, OMID, SIMID) and verification vendors it supports: none, since it runs
        // no JavaScript. An empty list says so (AdCOM: a framework not listed is not supported); -1 would be
        // "unknown" and invite a VPAID or OM creative that vplay cannot run.
        "APIFRAMEWORKS": "",
        "VERIFICATIONVENDORS": "",
        // The player and VAST client, `{player name}/{player version}` (IAB macro list): vplay is both.
        "CLIENTUA": "vplay/\(VPlayVersion.current)",
    ]
}
