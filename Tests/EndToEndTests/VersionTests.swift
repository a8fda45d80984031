import ArgumentParser
import Testing
import TestSupport
@testable import vplay

/// `vplay --version`: one line from `VPlay.version`, exit 0.
@Suite struct VersionTests {
    @Test(arguments: [["--version"], ["run", "--version"], ["fleet", "--version"]])
    func versionFlag_printsTheVersionAndIsASuccess(_ arguments: [String]) throws {
        let exit = try #require(throws: (any Error).self) { try VPlay.parseAsRoot(arguments) }
        #expect(VPlay.fullMessage(for: exit) == "vplay \(VPlay.version)")
        #expect(VPlay.exitCode(for: exit) == .success)
        #expect(VPlay.usageMessage(for: exit) == nil, "not a usage error")
    }

    @Test func version_isMajorMinorPatch() {
        let parts = VPlay.version.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil }, "\(VPlay.version)")
    }

    @Test func readme_showsTheVersion() throws {
        let readme = try String(contentsOfFile: Repo.root.appendingPathComponent("README.md").path, encoding: .utf8)
        #expect(readme.contains("vplay --version                             # vplay \(VPlay.version)"))
    }

    /// The real binary: the version on stdout, nothing on stderr, exit 0.
    @Test func versionFlag_printsTheVersionAndExits0() async throws {
        let run = try await vplay(["--version"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "vplay \(VPlay.version)\n")
        #expect(run.stderr.isEmpty)
    }
}
