#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BeaconSink
import Foundation
import Testing

/// `SinkConfiguration.mediaDirectory` (`vplay sink --media DIR`): files served at `/media/…` with ranges, and
/// nothing outside the folder.
@Suite struct BeaconSinkMediaTests {
    private func configuration(_ folder: MediaFolder, faults: [String] = []) throws -> SinkConfiguration {
        SinkConfiguration(faults: try faults.map { try SinkFault(spec: $0) }, mediaDirectory: folder.served.path)
    }

    @Test func media_wholeFile_isServedWithItsTypeAndLength_andRecorded() async throws {
        let folder = try MediaFolder()
        let bytes = try folder.write("ads/clip.mp4", MediaFolder.pattern(300_000))
        try await withSink(try configuration(folder)) { sink, port in
            let client = try RawConnection(port: port)
            try client.send(RawConnection.request("/media/ads/clip.mp4?cb=1"))
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.body == bytes)
            #expect(response.headers["content-type"] == "video/mp4")
            #expect(response.headers["content-length"] == "300000")
            #expect(response.headers["accept-ranges"] == "bytes")
            #expect(response.headers["content-range"] == nil)
            // The connection stays usable after a streamed body.
            try client.send(RawConnection.request("/impression"))
            #expect(try client.readResponse().body == expectedPixel)
            let hits = sink.hits()
            #expect(hits.map(\.status) == [200, 200])
            #expect(hits.first?.path == "/media/ads/clip.mp4" && hits.first?.range == nil && hits.first?.fault == nil)
        }
    }

    /// A served VAST tag went out as `application/octet-stream`, which a browser's player refuses as a tag: tags,
    /// manifests and segments have their own types.
    @Test func media_tagsManifestsAndSegments_haveTheirTypes() async throws {
        let folder = try MediaFolder()
        let types = ["ad.xml": "application/xml", "stream.mpd": "application/dash+xml", "v.m3u8": "application/vnd.apple.mpegurl",
                     "s1.ts": "video/mp2t", "clip.webm": "video/webm", "blob.bin": "application/octet-stream"]
        for name in types.keys { _ = try folder.write(name, MediaFolder.pattern(10)) }
        try await withSink(try configuration(folder)) { _, port in
            for (name, type) in types {
                let client = try RawConnection(port: port)
                try client.send(RawConnection.request("/media/\(name)"))
                #expect(try client.readResponse().headers["content-type"] == type, "\(name)")
            }
        }
    }

    @Test(arguments: [
        ("bytes=0-99", 0, 99), ("bytes=1000-", 1000, 4095), ("bytes=4000-9999", 4000, 4095), ("bytes=-96", 4000, 4095),
        ("bytes=4095-4095", 4095, 4095),
    ])
    func media_range_answers206WithExactlyThoseBytes(range: String, start: Int, end: Int) async throws {
        let folder = try MediaFolder()
        let bytes = try folder.write("a.webm", MediaFolder.pattern(4096))
        try await withSink(try configuration(folder)) { sink, port in
            let client = try RawConnection(port: port)
            try client.send(RawConnection.request("/media/a.webm", extraHeaders: "Range: \(range)\r\n"))
            let response = try client.readResponse()
            #expect(response.status == 206)
            #expect(response.body == Array(bytes[start...end]))
            #expect(response.headers["content-range"] == "bytes \(start)-\(end)/4096")
            #expect(response.headers["content-length"] == String(end - start + 1))
            #expect(response.headers["content-type"] == "video/webm")
            #expect(sink.hits().first?.range == range && sink.hits().first?.status == 206)
        }
    }

    @Test func media_rangePastTheEnd_is416WithTheSize_andAMalformedRangeIsIgnored() async throws {
        let folder = try MediaFolder()
        let bytes = try folder.write("b.mov", MediaFolder.pattern(1000))
        try await withSink(try configuration(folder)) { sink, port in
            let client = try RawConnection(port: port)
            try client.send(RawConnection.request("/media/b.mov", extraHeaders: "Range: bytes=1000-\r\n"))
            let refused = try client.readResponse()
            #expect(refused.status == 416)
            #expect(refused.headers["content-range"] == "bytes */1000")
            #expect(refused.body.isEmpty)
            try client.send(RawConnection.request("/media/b.mov", extraHeaders: "Range: bytes=9-3\r\n"))
            let whole = try client.readResponse()
            #expect(whole.status == 200 && whole.body == bytes && whole.headers["content-type"] == "video/quicktime")
            #expect(sink.hits().map(\.status) == [416, 200])
        }
    }

    @Test func media_head_sendsTheHeadersOnly() async throws {
        let folder = try MediaFolder()
        try folder.write("c.bin", MediaFolder.pattern(777))
        try await withSink(try configuration(folder)) { _, port in
            let client = try RawConnection(port: port)
            try client.send(RawConnection.request("/media/c.bin", method: "HEAD"))
            let response = try client.readResponse(toHead: true)
            #expect(response.status == 200)
            #expect(response.headers["content-length"] == "777")
            #expect(response.headers["content-type"] == "application/octet-stream")
            try client.send(RawConnection.request("/impression"))
            #expect(try client.readResponse().body == expectedPixel, "no stray body bytes after the HEAD answer")
        }
    }

    @Test func media_percentEncodedName_isDecodedOnce() async throws {
        let folder = try MediaFolder()
        let bytes = try folder.write("my clip%41.mp4", MediaFolder.pattern(10))
        try await withSink(try configuration(folder)) { _, port in
            let client = try RawConnection(port: port)
            try client.send(RawConnection.request("/media/my%20clip%2541.mp4"))
            #expect(try client.readResponse().body == bytes)
            try client.send(RawConnection.request("/media/my%20clipA.mp4"))
            #expect(try client.readResponse().status == 404, "decoded once, not twice")
        }
    }

    @Test func media_nothingOutsideTheFolder_noDotDot_noSymlinkEscape_noFIFO_noFolder() async throws {
        let folder = try MediaFolder()
        try folder.write("secret.mp4", MediaFolder.pattern(50), outside: true)
        let inside = try folder.write("inside.mp4", MediaFolder.pattern(60))
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: folder.served.appendingPathComponent("escape.mp4").path,
                                  withDestinationPath: folder.outside.appendingPathComponent("secret.mp4").path)
        try fm.createSymbolicLink(atPath: folder.served.appendingPathComponent("out").path, withDestinationPath: folder.outside.path)
        try fm.createSymbolicLink(atPath: folder.served.appendingPathComponent("alias.mp4").path, withDestinationPath: "inside.mp4")
        try fm.createSymbolicLink(atPath: folder.served.appendingPathComponent("zero").path, withDestinationPath: "/dev/zero")
        #expect(mkfifo(folder.served.appendingPathComponent("pipe.mp4").path, 0o600) == 0)
        try fm.createDirectory(at: folder.served.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try await withSink(try configuration(folder)) { sink, port in
            let refused = [
                "/media/../outside/secret.mp4", "/media/%2e%2e/outside/secret.mp4", "/media/sub/..%2f..%2foutside/secret.mp4",
                "/media/escape.mp4", "/media/out/secret.mp4", "/media/zero", "/media/pipe.mp4", "/media/sub", "/media/",
                "/media/missing.mp4", "/media/inside.mp4%00.txt", "/media/bad%zz", "/media//inside.mp4", "/media/./inside.mp4",
            ]
            for target in refused {
                let client = try RawConnection(port: port)
                try client.send(RawConnection.request(target))
                let response = try client.readResponse()
                #expect(response.status == 404, "\(target)")
                #expect(response.body.isEmpty, "\(target)")
            }
            let client = try RawConnection(port: port)
            try client.send(RawConnection.request("/media/alias.mp4"))
            #expect(try client.readResponse().body == inside, "a symlink that stays inside is followed")
            #expect(sink.hits().count == refused.count + 1)
        }
    }

    @Test func media_withoutAFolder_mediaPathsGetThePixel_andAMissingFolderFailsTheStart() async throws {
        try await withSink { _, port in
            let client = try RawConnection(port: port)
            try client.send(RawConnection.request("/media/x.mp4"))
            #expect(try client.readResponse().body == expectedPixel)
        }
        let sink = BeaconSink(configuration: SinkConfiguration(mediaDirectory: "/nonexistent/vplay-media"))
        await #expect(throws: BeaconSinkError.self) { try await sink.start() }
    }

    @Test func media_answerFaultWins_overTheFile() async throws {
        let folder = try MediaFolder()
        try folder.write("d.mp4", MediaFolder.pattern(100))
        try await withSink(try configuration(folder, faults: ["503x1@/media/*"])) { sink, port in
            let client = try RawConnection(port: port)
            try client.send(RawConnection.request("/media/d.mp4"))
            #expect(try client.readResponse().status == 503)
            try client.send(RawConnection.request("/media/d.mp4"))
            #expect(try client.readResponse().body == MediaFolder.pattern(100))
            #expect(sink.hits().map(\.fault) == ["503x1@/media/*", nil])
        }
    }

    @Test func media_clientGoesAwayMidBody_theSinkCarriesOn() async throws {
        let folder = try MediaFolder()
        try folder.write("big.mp4", MediaFolder.pattern(8 * 1024 * 1024))
        try await withSink(try configuration(folder, faults: ["rate=64k@/media/*"])) { sink, port in
            do {
                let client = try RawConnection(port: port)
                try client.send(RawConnection.request("/media/big.mp4"))
                _ = try? client.readResponse(timeout: .milliseconds(300))
            }
            let next = try RawConnection(port: port)
            try next.send(RawConnection.request("/impression"))
            #expect(try next.readResponse().body == expectedPixel)
            #expect(sink.hits().count == 2)
        }
    }
}
