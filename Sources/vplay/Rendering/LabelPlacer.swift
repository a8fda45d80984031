/// Places a picture's text labels so that no two overlap: each label tries its candidate places in order and takes
/// the first where its box is free and inside the bounds; a label with no free place is left out (the caller keeps
/// its text elsewhere, as a marker's tooltip) and counted. Boxes are estimated from the text's length and font
/// size (a sans-serif character is taken as 0.62 of the size wide, a little wider than most are).
struct LabelPlacer {
    struct Box: Equatable {
        var minX, minY, maxX, maxY: Double
        func overlaps(_ other: Box) -> Bool { minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY }
        func inside(_ other: Box) -> Bool { minX >= other.minX && maxX <= other.maxX && minY >= other.minY && maxY <= other.maxY }
    }

    /// Where a label may go: its anchor point (the text's baseline) and whether the text ends there (`end`) or
    /// starts there.
    struct Spot: Equatable {
        var x, y: Double
        var anchorsEnd = false
    }

    static let characterWidth = 0.62

    let bounds: Box
    private(set) var taken: [Box] = []
    /// Labels that found no free place.
    private(set) var leftOut = 0

    init(bounds: Box) { self.bounds = bounds }

    /// The box `text` covers at `spot` in a font of `size`.
    static func box(_ text: String, size: Double, at spot: Spot) -> Box {
        let width = Double(text.count) * size * characterWidth
        let minX = spot.anchorsEnd ? spot.x - width : spot.x
        return Box(minX: minX, minY: spot.y - size * 0.85, maxX: minX + width, maxY: spot.y + size * 0.25)
    }

    /// Marks `box` as taken (a legend, a heading) without placing a label there.
    mutating func reserve(_ box: Box) { taken.append(box) }

    /// The first of `spots` where `text` fits, now taken; nil (and counted) when none is free.
    mutating func place(_ text: String, size: Double, spots: [Spot]) -> Spot? {
        for spot in spots {
            let box = Self.box(text, size: size, at: spot)
            if box.inside(bounds), !taken.contains(where: { $0.overlaps(box) }) {
                taken.append(box)
                return spot
            }
        }
        leftOut += 1
        return nil
    }
}
