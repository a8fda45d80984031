import AdSession
import Foundation
import TestSupport
import Testing
@testable import PlayerEngine

/// Media over HTTPS is fetched only from a server whose certificate the system trusts, as players do: FFmpeg's TLS
/// layer checks nothing unless told to. The server is the tests' own file server over TLS on 127.0.0.1, with a
/// self-signed certificate that nothing trusts (`TestCertificate`).
@Suite struct MediaTLSTests {
    @Test(.hangLimit)
    func httpsMedia_fromAServerWithAnUntrustedCertificate_isNotPlayed_401() async throws {
        let server = try ScriptedHTTPServer(files: Repo.root.appendingPathComponent("media").path, tls: true)
        defer { server.stop() }
        let url = server.baseURL + "/clip-5s-video-only.mp4"
        // The server works for a client that does not check certificates (ffprobe: FFmpeg's TLS checks nothing by
        // default): only the check refuses it.
        let truth = try await ProbeTruth.of(url)
        #expect(truth.frames == [0: 150])
        let served = server.requests().count
        #expect(served > 0)
        let error = try #require(await decodeFailure(url), "played media from a server whose certificate nobody vouches for")
        guard case .unreachable = error else { Issue.record("got \(error)"); return }
        #expect(error.vastCode.rawValue == 401)
        #expect(server.requests().count == served, "the refused handshake sent no request")
    }
}
