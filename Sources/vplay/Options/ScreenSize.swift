import ArgumentParser

/// `--screen WxH`: the screen the media file is chosen for (`1280x720`; `X` too).
struct ScreenSize: Equatable, Sendable {
    var width: Int
    var height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses `WxH` with a positive width and height.
    init(parsing text: String) throws {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else {
            throw ValidationError("--screen must look like 1280x720")
        }
        self.init(width: width, height: height)
    }
}
