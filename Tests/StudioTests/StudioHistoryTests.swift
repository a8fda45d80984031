import Foundation
import Testing
@testable import Studio

/// The run history in SQLite (a real database file), and in memory under `--no-history`.
@Suite struct StudioHistoryTests {
    func entry(_ id: String, created: String) -> StudioHistory.Entry {
        .init(id: id, kind: "run", title: "t \(id)", created: created, state: "running", exitCode: nil, arguments: #"["run"]"#, summary: "")
    }

    func exercise(_ history: StudioHistory) throws {
        try history.insert(entry("a", created: "2026-01-01T00:00:00Z"))
        try history.insert(entry("b", created: "2026-01-02T00:00:00Z"))
        try history.finish(id: "a", state: "done", exitCode: 0, summary: #"{"outcome":"completed"}"#)
        let list = try history.list()
        #expect(list.map(\.id) == ["b", "a"], "newest first")
        #expect(list.last?.state == "done" && list.last?.exitCode == 0 && list.last?.summary == #"{"outcome":"completed"}"#)
        try history.delete(id: "b")
        #expect(try history.list().map(\.id) == ["a"])
    }

    @Test func aDatabaseFile_keepsRunsAcrossLaunches() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vplay-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("history.sqlite").path
        try exercise(try StudioHistory(path: path))
        let reopened = try StudioHistory(path: path)
        #expect(try reopened.entry(id: "a")?.state == "done")
        #expect(try reopened.list().count == 1)
    }

    @Test func withoutHistory_theListLivesInMemory() throws {
        try exercise(try StudioHistory(path: nil))
    }

    @Test func anUnopenableDatabase_saysWhere() {
        #expect(throws: StudioError.self) { try StudioHistory(path: "/proc/vplay/none/history.sqlite") }
    }
}
