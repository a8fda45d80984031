import AdSession
import Foundation
import PlayerEngine
import Primitives
import Testing
import TestSupport
@testable import vplay

/// Issue 16: the media's download under a simulated network, on the virtual clock, in process (FFmpeg on the real
/// files: a simulated network maps the file's bytes). Every expected time here is worked out by the test itself from
/// the clip's own bytes: ffprobe gives each packet's presentation time, byte position and size, the test walks the
/// MP4's top-level boxes for the `moov`, and a few lines below integrate the rate. The session's startup delay, stalls
/// and quartile clocks must match that model to the millisecond (`Oracle.agrees`: the model is floating point, the
/// session counts in `Duration`s).
@Suite struct NetworkBehaviourTests {
    /// The test's own model of a progressive download: the bytes a time needs, and when they arrive.
    struct Oracle {
        var packets: [(time: Double, end: Int64)]
        var headerEnd: Int64
        var size: Int64
        /// (from seconds, kbps) steps, ascending from 0.
        var steps: [(at: Double, kbps: Double)]
        var rtt: Double

        func needed(_ time: Double) -> Int64 {
            packets.filter { $0.time <= time + 1e-9 }.map(\.end).reduce(headerEnd, max)
        }

        /// When the first `bytes` have arrived: two round trips, then the rate integrated step by step.
        func arrival(_ bytes: Int64) -> Double? {
            var bits = Double(bytes) * 8, time = 2 * rtt
            for (index, step) in steps.enumerated() {
                let end = index + 1 < steps.count ? steps[index + 1].at : Double.infinity
                guard end > time else { continue }
                let from = max(time, step.at), rate = step.kbps * 1000
                if rate > 0, rate * (end - from) >= bits { return from + bits / rate }
                if end == .infinity { return nil }
                bits -= rate * (end - from)
                time = end
            }
            return nil
        }

        /// The startup delay and each stall (clock from, clock to), for frames at `frames` (seconds) of a video of
        /// `duration`: a frame due before its bytes stalls playback until `rebuffer` s more have arrived.
        func play(frames: [Double], duration: Double, startup: Double = 1, rebuffer: Double = 2) -> (startup: Double, stalls: [(Double, Double)]) {
            let ready = arrival(needed(startup))!
            var stalled = 0.0, stalls: [(Double, Double)] = []
            for frame in frames.sorted() where frame < duration {
                let due = frame + stalled
                let available = arrival(needed(frame))! - ready
                if available > due + 1e-9 {
                    let resume = max(due, arrival(needed(frame + rebuffer))! - ready)
                    stalls.append((due, resume))
                    stalled += resume - due
                }
            }
            return (ready, stalls)
        }

        var frames: [Double] { packets.map(\.time) }

        static func of(_ path: String, steps: [(at: Double, kbps: Double)], rtt: Double) async throws -> Oracle {
            let probe = try await offThePool { try run("ffprobe", ["-v", "error", "-show_entries", "packet=pts_time,pos,size,flags", "-of", "csv=p=0", path]) }
            var packets: [(Double, Int64)] = []
            for line in probe.split(separator: "\n") {
                let fields = line.split(separator: ",").map(String.init)
                guard fields.count >= 4, !fields[3].contains("D"), let time = Double(fields[0]), let size = Int64(fields[1]), let pos = Int64(fields[2]) else { continue }
                packets.append((time, pos + size))
            }
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            return Oracle(packets: packets, headerEnd: Self.moovEnd(bytes), size: Int64(bytes.count), steps: steps, rtt: rtt)
        }

        /// The end of the top-level `moov` box.
        static func moovEnd(_ bytes: Data) -> Int64 {
            var position = 0
            while position + 8 <= bytes.count {
                let size = bytes[position..<position + 4].reduce(0) { $0 << 8 | Int($1) }
                let type = String(decoding: bytes[position + 4..<position + 8], as: UTF8.self)
                if type == "moov" { return Int64(position + size) }
                position += size
            }
            return 0
        }

        /// A session time and the model's agree to the millisecond: the model integrates in `Double` seconds, the
        /// session in `Duration`s, and neither is the other's rounding.
        static func agrees(_ time: Duration?, _ model: Double) -> Bool { time.map { abs($0.seconds - model) < 0.0011 } ?? false }
    }

    var kit: SessionKit {
        var kit = SessionKit()
        kit.realMedia = true
        return kit
    }

    @Test func constantRate_startupAndStalls_matchTheClipsOwnByteOffsets() async throws {
        let clip = Repo.media("clip-5s-video-only.mp4")
        let oracle = try await Oracle.of(clip, steps: [(0, 80)], rtt: 0.05)
        let expected = oracle.play(frames: oracle.frames, duration: 5)
        #expect(!expected.stalls.isEmpty, "80 kbps is below the clip's rate: it must stall")

        let folder = try TemporaryFolder()
        let tag = try folder.write("tag.xml", Self.tag(clip))
        let run = try await kit.run(cli: ["--vast", tag, "--dry-run", "--network", "kbps=80,rtt=50"])
        #expect(run.summary.outcome == .completed)
        let playback = try #require(run.summary.playback)
        #expect(Oracle.agrees(playback.startupDelay, expected.startup), "\(String(describing: playback.startupDelay)) vs \(expected.startup)")
        let starts = run.events(.bufferStart).map(\.clock), finishes = run.events(.bufferFinish).map(\.clock)
        #expect(starts.count == expected.stalls.count && finishes.count == expected.stalls.count, "\(starts) \(finishes) vs \(expected.stalls)")
        for (index, stall) in expected.stalls.enumerated() where index < min(starts.count, finishes.count) {
            #expect(Oracle.agrees(starts[index], stall.0) && Oracle.agrees(finishes[index], stall.1), "stall \(index): \(starts[index])–\(finishes[index]) vs \(stall)")
        }
        #expect(playback.rebuffers == expected.stalls.count)

        // Quartiles keep their playheads; their clocks move by the time stalled before them.
        for (name, playhead) in [(PlaybackEvent.Name.firstQuartile, Duration.milliseconds(1250)), (.midpoint, .milliseconds(2500)),
                                 (.thirdQuartile, .milliseconds(3750)), (.complete, .seconds(5))] {
            let event = try #require(run.events(name).first)
            #expect(event.playhead == playhead)
            // The clock is the playhead plus every stall that ended before the playhead reached it.
            var clock = playhead.seconds
            for stall in expected.stalls where stall.0 < clock + 1e-9 { clock += stall.1 - stall.0 }
            #expect(Oracle.agrees(event.clock, clock), "\(name): \(event) vs clock \(clock)")
        }
    }

    @Test func traceDroppingToZero_stallsThere_andResumesAfterTheRebuffer() async throws {
        let clip = Repo.media("clip-5s-video-only.mp4")
        let steps: [(at: Double, kbps: Double)] = [(0, 200), (1.5, 0), (4, 200)]
        let oracle = try await Oracle.of(clip, steps: steps, rtt: 0)
        let expected = oracle.play(frames: oracle.frames, duration: 5)
        #expect(expected.stalls.count == 1, "one stall, where the data ran out: \(expected.stalls)")

        let folder = try TemporaryFolder()
        let tag = try folder.write("tag.xml", Self.tag(clip))
        let trace = try folder.write("trace.json", #"[{"at": 0, "kbps": 200}, {"at": 1.5, "kbps": 0}, {"at": 4, "kbps": 200}]"#)
        let run = try await kit.run(cli: ["--vast", tag, "--dry-run", "--network-trace", trace])
        #expect(run.summary.outcome == .completed)
        let start = try #require(run.events(.bufferStart).first), finish = try #require(run.events(.bufferFinish).first)
        let stall = try #require(expected.stalls.first)
        #expect(Oracle.agrees(start.clock, stall.0) && Oracle.agrees(finish.clock, stall.1), "\(start) \(finish) vs \(stall)")
        #expect(start.playhead == finish.playhead, "the playhead holds while stalled")
        #expect(run.events(.pause).isEmpty && run.beacons("pause").isEmpty, "a stall is not a pause: no pause tracking")

        // Time stalled is not played: a reward after 4 s played comes at playhead 4, the stall's length later on the clock.
        let rewarded = try await kit.run(cli: ["--vast", tag, "--dry-run", "--network-trace", trace, "--reward", "Coins:1", "--reward-at", "4"])
        let reward = try #require(rewarded.events(.rewarded).first)
        #expect(reward.playhead == .seconds(4) && Oracle.agrees(reward.clock, 4 + stall.1 - stall.0), "\(reward)")
        #expect(reward.clock - reward.playhead == finish.clock - start.clock, "exactly the stall's length")
    }

    @Test func trailingMoov_startsLateByTheWholeFile_andIsWarnedAbout() async throws {
        let folder = try TemporaryFolder()
        let remuxed = folder.url.appendingPathComponent("trailing.mp4").path
        try await runOffThePool("ffmpeg", ["-v", "error", "-y", "-i", Repo.media("clip-5s-video-only.mp4"), "-c", "copy", remuxed])
        let oracle = try await Oracle.of(remuxed, steps: [(0, 400)], rtt: 0.1)
        #expect(oracle.headerEnd == oracle.size, "ffmpeg without +faststart writes the moov last")
        let whole = try #require(oracle.arrival(oracle.size))
        let tag = try folder.write("tag.xml", Self.tag(remuxed))
        let run = try await kit.run(cli: ["--vast", tag, "--dry-run", "--network", "kbps=400,rtt=100"])
        #expect(Oracle.agrees(run.summary.playback?.startupDelay, whole), "size / rate after two round trips: \(String(describing: run.summary.playback?.startupDelay))")
        #expect(run.warnings.contains { $0.contains("moov) comes after its media data") }, "\(run.warnings)")

        let named = try await kit.inspect(cli: ["inspect", "--vast", tag, "--network", "fast3g"])
        #expect(named.warnings.contains { $0.rule == "VPLAY-media-moov-after-mdat" && $0.message.contains("moov) comes after its media data") }, "\(named.warnings)")
        let inspected = try await kit.inspect(cli: ["inspect", "--vast", tag, "--network", "kbps=400,rtt=100"])
        let delivery = try #require(inspected.delivery)
        #expect(delivery.map.headerAtEnd && delivery.map.bytesNeeded(through: delivery.startupBuffer) == oracle.size, "\(delivery.map)")
        #expect(Oracle.agrees(delivery.startupDelay, whole))
        #expect(delivery.startupDelay == run.summary.playback?.startupDelay, "inspect and run time the same download")
        // What `vplay inspect` prints of it, in JSON and in text.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(InspectRendering.json(inspected).text.utf8)) as? [String: Any])
        let network = try #require(object["network"] as? [String: Any], "\(object.keys.sorted())")
        #expect(network["profile"] as? String == "kbps=400,rtt=100" && network["headerAtEnd"] as? Bool == true
                && network["size"] as? Int == Int(oracle.size) && network["bytesForStartup"] as? Int == Int(oracle.size), "\(network)")
        #expect(InspectRendering.text(inspected).contains("network kbps=400,rtt=100: first frame"), "\(InspectRendering.text(inspected))")
    }

    @Test func offline_fails402AfterTheMediaTimeout_tryingEveryFile() async throws {
        let folder = try TemporaryFolder()
        let tag = try folder.write("tag.xml", Self.tag(Repo.media("clip-5s-video-only.mp4"), second: Repo.media("clip-10s-360p.mp4")))
        let run = try await kit.run(cli: ["--vast", tag, "--dry-run", "--network", "offline"])
        #expect(run.summary.outcome == .mediaError)
        let error = try #require(run.errors.first)
        #expect(error.code.rawValue == 402)
        #expect(error.message.contains("media timeout of 8.000 s on network offline"), "\(error)")
        #expect(run.warnings.contains { $0.contains("(VAST 402") && $0.contains("trying the next one") }, "\(run.warnings)")
        #expect(run.beacons("error").map(\.url) == ["http://127.0.0.1:9/err?code=402"])
        #expect(run.events.isEmpty, "nothing played")
    }

    @Test func slowFirstFile_fallsBackToOneReadyInTime() async throws {
        let folder = try TemporaryFolder()
        let tag = try folder.write("tag.xml", Self.tag(Repo.media("clip-10s-360p.mp4"), second: Repo.media("clip-5s-video-only.mp4")))
        let big = try await Oracle.of(Repo.media("clip-10s-360p.mp4"), steps: [(0, 100)], rtt: 0)
        let small = try await Oracle.of(Repo.media("clip-5s-video-only.mp4"), steps: [(0, 100)], rtt: 0)
        #expect(big.arrival(big.needed(1))! > 2 && small.arrival(small.needed(1))! < 2, "the timeout falls between the two")
        let run = try await kit.run(cli: ["--vast", tag, "--dry-run", "--network", "kbps=100", "--media-timeout", "2"])
        #expect(run.summary.outcome == .completed)
        #expect(run.resolved.first?.mediaURL == Repo.media("clip-5s-video-only.mp4"))
        #expect(run.warnings.contains { $0.contains("media timeout of 2.000 s") }, "\(run.warnings)")
        #expect(Oracle.agrees(run.summary.playback?.startupDelay, small.arrival(small.needed(1))!))
    }

    @Test func bandwidthAuto_choosesByTheProfilesRate() async throws {
        let folder = try TemporaryFolder()
        let tag = try folder.write("tag.xml", Self.tag(Repo.media("clip-10s-360p.mp4"), second: Repo.media("clip-5s-video-only.mp4"),
                                                     bitrates: (1200, 300)))
        let slow = try await kit.inspect(cli: ["inspect", "--vast", tag, "--network", "slow3g", "--bandwidth", "auto"])
        #expect(slow.selection?.file.effectiveBitrate == 300)
        let fast = try await kit.inspect(cli: ["inspect", "--vast", tag, "--network", "4g", "--bandwidth", "auto"])
        #expect(fast.selection?.file.effectiveBitrate == 1200)
        let huge = try await kit.inspect(cli: ["inspect", "--vast", tag, "--network", "kbps=1e300", "--bandwidth", "auto"])
        #expect(huge.outcome == .completed && huge.errors.isEmpty, "an absurd rate is a fast network, not a failure: \(huge.errors)")
        #expect(huge.selection?.file.effectiveBitrate == 1200)
    }

    /// The rate drops to 0 for good: with `--stall-timeout` the ad fails with 402 that long after the stall began;
    /// without one the session ends abandoned, saying why, and the reward is forfeited.
    @Test func rateDroppingForGood_failsAtTheStallTimeout_orIsAbandoned() async throws {
        let clip = Repo.media("clip-5s-video-only.mp4")
        let oracle = try await Oracle.of(clip, steps: [(0, 200), (1, 0)], rtt: 0)
        // The first frame whose bytes never come: the stall starts when that one is due.
        let stallAt = try #require(oracle.frames.sorted().first { oracle.arrival(oracle.needed($0)) == nil })
        let folder = try TemporaryFolder()
        let tag = try folder.write("tag.xml", Self.tag(clip))
        let trace = try folder.write("trace.json", #"{"rtt": 0, "steps": [{"at": 0, "kbps": 200}, {"at": 1, "kbps": 0}]}"#)
        let timed = try await kit.run(cli: ["--vast", tag, "--dry-run", "--network-trace", trace, "--stall-timeout", "3", "--reward", "Coins:1"])
        #expect(timed.summary.outcome == .mediaError)
        let start = try #require(timed.events(.bufferStart).first)
        // ffprobe prints the frame's time to the microsecond, as the JSON does.
        #expect(start.clock.microsecondSeconds == stallAt && start.playhead.microsecondSeconds == stallAt, "\(start) vs \(stallAt)")
        let error = try #require(timed.errors.first)
        #expect(error.code.rawValue == 402 && error.clock == start.clock + .seconds(3), "\(error)")
        #expect(timed.events(.rewardForfeited).count == 1 && timed.events(.rewarded).isEmpty)

        // Closed while stalled: the stall counts until the close.
        let closed = try await kit.run(cli: ["--vast", tag, "--dry-run", "--network-trace", trace, "--script", "close@\(stallAt + 1.5)"])
        #expect(Oracle.agrees(closed.summary.playback?.rebufferTime, 1.5), "\(String(describing: closed.summary.playback))")

        let open = try await kit.run(cli: ["--vast", tag, "--dry-run", "--network-trace", trace])
        let abandoned = try #require(open.events(.abandoned).first)
        #expect(abandoned.detailText == "stalled: the media stopped arriving", "\(abandoned)")
        #expect(open.summary.playback?.ending == .abandoned)
    }

    /// Tag requests are timed by the profile too: a wrapper's InLine of N bytes at 0.5 kbps takes N·8/500 s, past the
    /// 4 s a wrapper hop has, so the chain fails with 301 to the wrapper's Error URL, deterministically; at fast3g it
    /// plays. The InLine is answered from memory: the time is the profile's, not the transport's.
    @Test func slowNetwork_tripsTheWrapperTimeout_with301() async throws {
        var kit = self.kit
        // The kit's real media reads over HTTP (a remote tag may not name a local file): the clip from loopback.
        let clip = Repo.media("clip-5s-video-only.mp4")
        let server = try ScriptedHTTPServer { target in target == "/clip.mp4" ? .file(clip) : .status(404) }
        defer { server.stop() }
        let inLine = Self.tag("\(server.baseURL)/clip.mp4")
        kit.tag("https://ads.example/inline.xml", inLine)
        let folder = try TemporaryFolder()
        let wrapper = try folder.write("wrapper.xml", """
            <VAST version="4.1"><Ad id="w"><Wrapper><AdSystem>w</AdSystem>
            <VASTAdTagURI><![CDATA[https://ads.example/inline.xml]]></VASTAdTagURI>
            <Error><![CDATA[http://127.0.0.1:9/werr?code=[ERRORCODE]]]></Error>
            <Impression><![CDATA[http://127.0.0.1:9/wimp]]></Impression></Wrapper></Ad></VAST>
            """)
        #expect(Double(inLine.utf8.count) * 8 / 500 > 4, "the InLine takes longer than a wrapper hop's 4 s at 0.5 kbps")
        let slow = try await kit.run(cli: ["--vast", wrapper, "--dry-run", "--network", "kbps=0.5"])
        #expect(slow.summary.outcome == .adError)
        let error = try #require(slow.errors.first)
        #expect(error.code.rawValue == 301 && error.message.contains("on network kbps=0.5,rtt=0"), "\(error)")
        #expect(slow.beacons("error").map(\.url) == ["http://127.0.0.1:9/werr?code=301"])
        let fast = try await kit.run(cli: ["--vast", wrapper, "--dry-run", "--network", "fast3g"])
        #expect(fast.summary.outcome == .completed && fast.events(.complete).count == 1, "\(fast.errors) \(fast.warnings)")
    }

    /// A plain InLine whose media files are the given paths.
    static func tag(_ media: String, second: String? = nil, bitrates: (Int, Int) = (500, 400)) -> String {
        func file(_ path: String, _ bitrate: Int) -> String {
            #"<MediaFile delivery="progressive" type="video/mp4" width="320" height="180" bitrate="\#(bitrate)"><![CDATA[\#(path)]]></MediaFile>"#
        }
        return """
            <VAST version="4.1"><Ad id="net"><InLine><AdSystem>s</AdSystem><AdTitle>t</AdTitle>
            <Impression><![CDATA[http://127.0.0.1:9/imp]]></Impression><Error><![CDATA[http://127.0.0.1:9/err?code=[ERRORCODE]]]></Error>
            <Creatives><Creative><Linear><Duration>00:00:05</Duration><MediaFiles>
            \(file(media, bitrates.0))\(second.map { file($0, bitrates.1) } ?? "")
            </MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>
            """
    }
}
