import Foundation
import Testing
import TestSupport

/// `--timeline` as only the binary against a real sink shows it: the beacon lanes are in the order the beacons were
/// sent, though a delayed answer is logged later. What the picture draws (labels that never cover each other, the
/// error's own row, the headline) is `TimelineBehaviourTests`, in process.
@Suite(.hangLimit) struct TimelineTests {
    /// Only the binary against a real sink with a delayed answer shows the timeline file's lanes in sent order.
    @Test func beaconLanes_areInTheOrderTheBeaconsWereSent() async throws {
        let folder = try TemporaryFolder()
        let svgPath = folder.url.appendingPathComponent("t.svg").path
        // A delayed start answers after the quartiles were sent: logged (answered) order is not sent order.
        let run = try await vplay(["--vast", "media/demo.xml", "--sink", "--sink-fault", "delay=1500ms@/start", "--timeline", svgPath])
        #expect(run.status == 0, "\(run.stderr)")
        let svg = try String(contentsOfFile: svgPath, encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"<rect x="([0-9.]+)" y="([0-9.]+)" width="[0-9.]+" height="9""#)
        let bars = pattern.matches(in: svg, range: NSRange(svg.startIndex..., in: svg)).map { match in
            (x: Double(svg[Range(match.range(at: 1), in: svg)!])!, y: Double(svg[Range(match.range(at: 2), in: svg)!])!)
        }.sorted { $0.y < $1.y }
        #expect(bars.count >= 12)
        #expect(zip(bars, bars.dropFirst()).allSatisfy { $0.x <= $1.x }, "lanes top to bottom follow the clock: \(bars.map(\.x))")
    }
}
