// swift-tools-version: 6.0
import PackageDescription

/// libFuzzer targets for vplay's parsers and media layer. A package of its own, so the normal build and tests never
/// compile them; build and run them with `scripts/fuzz.sh` (it builds with `-Xswiftc -sanitize=fuzzer,address`).
///
/// Each target is an executable whose `main.swift` hands its one-input function to libFuzzer's loop through
/// `FuzzDriver` (`LLVMFuzzerRunDriver`). The usual `@_cdecl("LLVMFuzzerTestOneInput")` with libFuzzer's own `main`
/// does not work under SwiftPM on Linux: SwiftPM always links an executable's `main` to the module's entry point
/// (`--defsym main=<module>_main`), which either shadows libFuzzer's `main` (top-level code: the program runs no
/// input and exits 0) or is missing (`-parse-as-library`: the link fails).
let package = Package(
    name: "vplay-fuzz",
    dependencies: [
        .package(name: "vplay", path: ".."),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        .target(name: "FuzzDriver"),
        .executableTarget(name: "fuzz-vast", dependencies: ["FuzzDriver", .product(name: "VAST", package: "vplay")]),
        .executableTarget(name: "fuzz-macros", dependencies: ["FuzzDriver", .product(name: "TrackingBeacons", package: "vplay")]),
        .executableTarget(name: "fuzz-script", dependencies: ["FuzzDriver", .product(name: "PlayerEngine", package: "vplay")]),
        .executableTarget(
            name: "fuzz-expectations",
            dependencies: [
                "FuzzDriver", .product(name: "AdSession", package: "vplay"), .product(name: "PlayerEngine", package: "vplay"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .executableTarget(name: "fuzz-media", dependencies: ["FuzzDriver", .product(name: "PlayerEngine", package: "vplay")]),
        .executableTarget(name: "fuzz-mpd", dependencies: ["FuzzDriver", .product(name: "PlayerEngine", package: "vplay")]),
        .executableTarget(name: "fuzz-capture", dependencies: ["FuzzDriver", .product(name: "AdSession", package: "vplay")]),
        .executableTarget(
            name: "fuzz-url",
            dependencies: ["FuzzDriver", .product(name: "Networking", package: "vplay"), .product(name: "TrackingBeacons", package: "vplay")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
