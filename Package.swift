// swift-tools-version: 6.0
import PackageDescription

/// vplay: a headless rewarded-video ad playback simulator.
/// Module map and which way the targets depend: docs/architecture.md.
let package = Package(
    name: "vplay",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "vplay", targets: ["vplay"]),
        .library(name: "Primitives", targets: ["Primitives"]),
        .library(name: "Networking", targets: ["Networking"]),
        .library(name: "VAST", targets: ["VAST"]),
        .library(name: "PlayerEngine", targets: ["PlayerEngine"]),
        .library(name: "TrackingBeacons", targets: ["TrackingBeacons"]),
        .library(name: "BeaconSink", targets: ["BeaconSink"]),
        .library(name: "AdSession", targets: ["AdSession"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.29.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.1.0"),
        /// P-256 ECDSA for signed reward callbacks (AdMob server-side verification); already built for async-http-client.
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev"])]
        ),
        /// zlib and brotli: tags served with `Content-Encoding: gzip`, `deflate` or `br` are decoded.
        .systemLibrary(name: "CCompression", providers: [.apt(["zlib1g-dev", "libbrotli-dev"])]),
        /// Clocks, the lock, the blocking-work executor, SplitMix64, the `Duration` conversions, ISO 8601 instants,
        /// checked output files and the version: what every other target shares, with no dependency of its own.
        .target(name: "Primitives"),
        /// The one hardened XML reader every XML document goes through (VAST, DASH manifests): a pre-scan that refuses
        /// DTDs, entities and what crashes Foundation's parser, then libxml2 under limits.
        .target(name: "XMLReading"),
        /// What tag fetches, media, beacons and VAST's wrapper resolution share about the network: URL checks
        /// (`RequestURL`, percent-encoding), the address policy and `URLGate`, `ProxySettings`, `TLSWords`, the gated
        /// HTTP client (`GatedHTTPClient`: every request and redirect target checked; with `ForwardProxyRequest`,
        /// `HeaderField` and `BeaconHop`) and `EventLoopTaskExecutor`.
        .target(
            name: "Networking",
            dependencies: [
                "Primitives",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        /// Findings and their rules: `Rule` (a stable ID, a default severity, the clause it rests on), `Finding`, the
        /// `RuleCatalogue`, and the severity policy of a run (`RulePolicy`, `RuleConfig`). The rules themselves live
        /// with the code that checks them (`VAST`, `AdSession`).
        .target(name: "Findings"),
        .target(name: "VAST", dependencies: ["Primitives", "XMLReading", "Networking", "Findings"]),
        .target(name: "PlayerEngine", dependencies: ["CFFmpeg", "Primitives", "XMLReading", "Networking"]),
        .target(
            name: "TrackingBeacons",
            dependencies: [
                "Primitives", "Networking", "VAST",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        /// The embedded beacon sink: an HTTP server that records every hit (its own target, so the beacon library
        /// does not carry a server).
        .target(
            name: "BeaconSink",
            dependencies: [
                "Primitives",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        /// Live metrics: metric families written in Prometheus's text format, and the `/metrics` endpoint that serves
        /// them (NIO), for a fleet's `--metrics`.
        .target(
            name: "Metrics",
            dependencies: [
                "Primitives",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        /// SQLite 3: the studio's run history.
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        /// A connection to an SQLite file over the system's libsqlite3: the studio's history and a fleet's results.
        .target(name: "SQLite", dependencies: ["CSQLite"]),
        /// `vplay studio`: the web server (NIO), its page (HTML, CSS and JavaScript in the binary), the runs it starts
        /// as `vplay` child processes and their history (SQLite). It depends on no other vplay target: a run is the
        /// CLI's own.
        .target(
            name: "Studio",
            dependencies: [
                "Primitives", "SQLite",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .target(
            name: "AdSession",
            dependencies: [
                "Primitives", "XMLReading", "Networking", "Findings", "VAST", "PlayerEngine", "TrackingBeacons", "BeaconSink", "CCompression", "Metrics", "SQLite",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "vplay",
            dependencies: [
                "Primitives", "Networking", "Findings", "AdSession", "BeaconSink", "PlayerEngine", "TrackingBeacons", "VAST", "Studio", "Metrics",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        /// Paths, temporary folders, the scripted loopback HTTP(S) server, and the session test kit (`Session/`: every
        /// test double — in-memory tags, timeline media, the recording transport, the manual clock — and `SessionKit`,
        /// which runs sessions in process on them): shared by the test targets.
        .target(
            name: "TestSupport",
            dependencies: [
                "Primitives", "VAST", "PlayerEngine", "TrackingBeacons", "AdSession",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "PrimitivesTests", dependencies: ["Primitives", "TestSupport"]),
        .testTarget(name: "FindingsTests", dependencies: ["Findings"]),
        .testTarget(name: "MetricsTests", dependencies: ["Metrics"]),
        .testTarget(name: "StudioTests", dependencies: ["Studio"]),
        .testTarget(name: "NetworkingTests", dependencies: ["Networking", "Primitives", "TestSupport"]),
        .testTarget(name: "VASTTests", dependencies: ["VAST", "XMLReading", "Primitives", "TestSupport"]),
        .testTarget(name: "PlayerEngineTests", dependencies: ["PlayerEngine", "AdSession", "Primitives", "TestSupport"]),
        .testTarget(name: "TrackingBeaconsTests", dependencies: ["TrackingBeacons", "Networking", "VAST", "Primitives", "TestSupport"]),
        .testTarget(name: "BeaconSinkTests", dependencies: ["BeaconSink"]),
        .testTarget(name: "AdSessionTests", dependencies: ["AdSession", "Findings", "CCompression", "Primitives", "Networking", "PlayerEngine", "TrackingBeacons", "VAST", "XMLReading", "TestSupport"]),
        /// Runs a command and reports its own peak RSS, which a child spawned from the test process cannot
        /// (Tests/PeakRSS/main.swift says why): the end-to-end tests run `vplay` through it.
        .executableTarget(name: "peak-rss", path: "Tests/PeakRSS"),
        .testTarget(name: "EndToEndTests", dependencies: ["vplay", "peak-rss", "Primitives", "TestSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        /// What a session does, in process on the session test kit (`Tests/TestSupport/Session`): command lines parsed
        /// as `vplay` parses them, played on virtual and manual clocks with exact times.
        .testTarget(name: "SessionBehaviourTests", dependencies: ["vplay", "AdSession", "BeaconSink", "PlayerEngine", "TrackingBeacons", "VAST", "Primitives", "Networking", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
