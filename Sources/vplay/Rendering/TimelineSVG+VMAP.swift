import AdSession
import Foundation

extension TimelineSVG.Plot {
    /// A VMAP session: the content's spans between breaks as green bands along the top of the plot (content time in
    /// their labels), and a solid line where each break began, labelled with its number and offset.
    mutating func drawVMAP(_ run: VMAPRunReport?) {
        guard let run else { return }
        for span in run.content {
            let (from, to) = (span.start.seconds, span.end.seconds)
            let text = "content \(TimelineSVG.label(span.from.seconds))–\(TimelineSVG.label(span.to.seconds)) s"
            svg.append(##"<rect x="\##(TimelineSVG.f(x(from)))" y="\##(TimelineSVG.f(TimelineSVG.top))" width="\##(TimelineSVG.f(max(1, x(to) - x(from))))" height="\##(TimelineSVG.f(TimelineSVG.plotHeight))" fill="#eef6ec"><title>\##(TimelineSVG.escape(text)), session \##(TimelineSVG.f(from))–\##(TimelineSVG.f(to)) s</title></rect>"##)
            if let spot = labels.place(text, size: 10, spots: (0..<4).map { LabelPlacer.Spot(x: x(from) + 3, y: TimelineSVG.top + 36 + Double($0) * 12) }) {
                svg.append(##"<text x="\##(TimelineSVG.f(spot.x))" y="\##(TimelineSVG.f(spot.y))" fill="#3a6b35" font-size="10">\##(TimelineSVG.escape(text))</text>"##)
            }
        }
        for report in run.breaks {
            guard let start = report.start?.seconds else { continue }
            let bx = x(start)
            let text = "break \(report.number) (\(report.offsetText))" + (report.outcome == .played ? "" : ": \(report.outcome.rawValue)")
            let color = report.outcome == .played && report.errors.isEmpty ? "#0b5cad" : "#d1242f"
            svg.append(##"<line x1="\##(TimelineSVG.f(bx))" y1="\##(TimelineSVG.f(TimelineSVG.top))" x2="\##(TimelineSVG.f(bx))" y2="\##(TimelineSVG.f(TimelineSVG.top + TimelineSVG.plotHeight))" stroke="\##(color)"><title>\##(TimelineSVG.escape(VMAPRendering.text(report)))</title></line>"##)
            if let spot = labels.place(text, size: 10, spots: (0..<6).map { LabelPlacer.Spot(x: bx + 3, y: TimelineSVG.top + 60 + Double($0) * 12) }) {
                svg.append(##"<text x="\##(TimelineSVG.f(spot.x))" y="\##(TimelineSVG.f(spot.y))" fill="\##(color)" font-size="10">\##(TimelineSVG.escape(text))</text>"##)
            }
        }
    }
}
