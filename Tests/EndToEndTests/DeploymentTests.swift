import Foundation
import Testing
import TestSupport
@testable import AdSession

/// deploy/: the Dockerfile and the Kubernetes manifests pass the linters people run on them, and the fleet Job does
/// what its comments say when its arguments are run here: every beacon to the collector, the report alone on
/// stdout, a failed pod when beacons are lost, the whole fleet's rate split over the shards, and a merge script that
/// refuses an incomplete set of shards.
@Suite(.hangLimit) struct DeploymentTests {
    static let deploy = Repo.root.appendingPathComponent("deploy")

    /// A linter scripts/setup.sh installs into .build-tools/validators (PyPI), run on `arguments`.
    func lint(_ tool: String, _ arguments: [String]) async throws -> Invocation {
        let validators = Repo.root.appendingPathComponent(".build-tools/validators")
        let path = validators.appendingPathComponent("bin/\(tool)").path
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is missing: run scripts/setup.sh (it installs \(tool) from PyPI)")
        return try await runProcess("/usr/bin/env", ["PYTHONPATH=\(validators.path)", path] + arguments)
    }

    /// Only a process shows hadolint's verdict: exit 0 on deploy/Dockerfile, non-zero on a root, unpinned one.
    @Test func dockerfile_passesHadolint_andRunsAsAnUnprivilegedUser() async throws {
        let dockerfile = Self.deploy.appendingPathComponent("Dockerfile").path
        let run = try await lint("hadolint", [dockerfile])
        #expect(run.status == 0, "hadolint: \(run.stdout)\(run.stderr)")
        let lastUser = try String(contentsOfFile: dockerfile, encoding: .utf8).split(separator: "\n").last { $0.hasPrefix("USER ") }
        #expect(lastUser == "USER 65532:65532", "the image's last USER is not root")
        // The linter is not a rubber stamp: a Dockerfile that runs as root with an unpinned base image fails it.
        let folder = try TemporaryFolder()
        let bad = try folder.write("Dockerfile", "FROM debian\nUSER root\nRUN apt-get install curl\n")
        #expect(try await lint("hadolint", [bad]).status != 0)
    }

    /// Only a process shows kubernetes-validate's verdict: exit 0 on the manifests, non-zero with an unknown field.
    @Test func manifests_passStrictKubernetesSchemaValidation() async throws {
        let manifests = ["fleet-job.yaml", "collector.yaml"].map { Self.deploy.appendingPathComponent("k8s/\($0)").path }
        let run = try await lint("kubernetes-validate", ["--strict", "--kubernetes-version", "1.30.0"] + manifests)
        #expect(run.status == 0, "kubernetes-validate: \(run.stdout)\(run.stderr)")
        // Strict means strict: an unknown field in the pod spec fails.
        let folder = try TemporaryFolder()
        let text = try String(contentsOfFile: manifests[0], encoding: .utf8)
        let bad = try folder.write("bad.yaml", text.replacingOccurrences(of: "      restartPolicy: Never", with: "      restartPolicy: Never\n      restartPolicyy: Always"))
        #expect(try await lint("kubernetes-validate", ["--strict", "--kubernetes-version", "1.30.0", bad]).status != 0)
        // Every pod runs unprivileged on a read-only root filesystem.
        for manifest in manifests {
            let text = try String(contentsOfFile: manifest, encoding: .utf8)
            #expect(text.contains("runAsNonRoot: true") && text.contains("readOnlyRootFilesystem: true") && text.contains("allowPrivilegeEscalation: false"), "\(manifest)")
            #expect(!text.contains("ReadWriteMany"), "\(manifest) needs no shared volume")
        }
    }

    /// The fleet Job's container arguments, with `index` for the completion index.
    func jobArguments(index: Int) throws -> (arguments: [String], completions: Int) {
        let text = try String(contentsOfFile: Self.deploy.appendingPathComponent("k8s/fleet-job.yaml").path, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        func value(_ key: String) -> String? {
            lines.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(key + ":") }
                .map { $0.split(separator: ":", maxSplits: 1)[1].split(separator: "#")[0].trimmingCharacters(in: .whitespaces) }
        }
        #expect(value("completionMode") == "Indexed")
        let completions = try #require(value("completions").flatMap { Int($0) })
        #expect(value("parallelism").flatMap { Int($0) } == completions)
        let start = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "args:" })
        var arguments: [String] = []
        for line in lines[(start + 1)...] {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("#") { continue }
            guard trimmed.hasPrefix("- ") else { break }
            var argument = String(trimmed.dropFirst(2)).split(separator: "#")[0].trimmingCharacters(in: .whitespaces)
            if argument.hasPrefix("\"") { argument = String(argument.dropFirst().dropLast()) }
            arguments.append(argument.replacingOccurrences(of: "$(JOB_COMPLETION_INDEX)", with: String(index)))
        }
        return (arguments, completions)
    }

    /// The Job's arguments run here, small: the demo tag, a few sessions, the collector a loopback server.
    func runShard(index: Int, collector: String) async throws -> (Invocation, completions: Int) {
        let (arguments, completions) = try jobArguments(index: index)
        #expect(arguments.first == "fleet")
        #expect(arguments.firstIndex(of: "--shard").map { arguments[$0 + 1] } == "\(index)/\(completions)", "the completion index is the shard")
        var local = arguments
        func set(_ option: String, _ value: String) throws {
            let i = try #require(local.firstIndex(of: option), "the Job passes \(option)")
            local[i + 1] = value
        }
        try set("--vast", "media/demo.xml")
        try set("--sessions", "24")
        try set("--collector", collector)
        // The Job's metrics port, here a free one on loopback (tests run side by side), and no scraper to wait for.
        try set("--metrics", "127.0.0.1:0")
        try set("--metrics-linger", "0")
        for flag in ["--fail-on-beacon-errors", "--json", "--quiet", "--deny-private-networks"] {
            #expect(local.contains(flag), "the Job passes \(flag)")
        }
        return (try await vplay(local), completions)
    }

    /// Only the binary against a real loopback collector shows every beacon arriving, the report alone on stdout.
    @Test func fleetJob_sendsEveryBeaconToTheCollector_andItsLogIsTheReportAlone() async throws {
        let collector = try ScriptedHTTPServer(replies: [.status(204)])
        defer { collector.stop() }
        let (run, completions) = try await runShard(index: 3, collector: collector.baseURL)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty, "a succeeded shard writes nothing but its report: \(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "stdout is one JSON report")
        #expect((report["fleet"] as? [String: Any])?["shards"] as? [Int] == [3])
        #expect((report["fleet"] as? [String: Any])?["shardCount"] as? Int == completions)
        let rows = try #require((report["population"] as? [String: Any])?["beacons"] as? [[String: Any]])
        let sent = rows.compactMap { $0["sent"] as? Int }.reduce(0, +)
        #expect(sent > 0)
        // Every tracking URL reached the collector (the demo tag names 127.0.0.1:8089, where nothing listens),
        // path and query kept.
        let requests = collector.requests()
        #expect(requests.count == sent, "the collector got every beacon: \(requests.count) of \(sent)")
        #expect(requests.allSatisfy { $0.target.hasPrefix("/") } && requests.contains { $0.target.hasPrefix("/firstQuartile?pos=") })
    }

    /// Only a process shows the exit status 5 that fails the pod when the collector's port refuses every connection.
    @Test func fleetJob_failsItsPod_whenTheCollectorIsDown() async throws {
        let (run, _) = try await runShard(index: 0, collector: "http://127.0.0.1:\(ScriptedHTTPServer.closedPort())")
        #expect(run.status == 5, "a shard whose beacons were refused fails its pod: \(run.stderr)")
    }

    /// Issue 37, item 19: the cluster stops a pod with SIGTERM (an eviction, a preemption). Only a process shows the
    /// stopped shard's exit 143 with the report of exactly what it sent as its log; and the Job never retries an index
    /// (a retry re-sent every beacon the stopped shard had sent).
    @Test func fleetJob_stoppedShard_exits143WithWhatItSent_andIsNeverRetried() async throws {
        let text = try String(contentsOfFile: Self.deploy.appendingPathComponent("k8s/fleet-job.yaml").path, encoding: .utf8)
        #expect(text.contains("\n  backoffLimitPerIndex: 0 "), "no index is retried")
        #expect(!text.contains("podFailurePolicy"), "no rule retries a stopped or lost pod")
        let collector = try ScriptedHTTPServer(replies: [.status(204)])
        defer { collector.stop() }
        let folder = try TemporaryFolder()
        var (arguments, _) = try jobArguments(index: 1)
        func set(_ option: String, _ value: String) { if let i = arguments.firstIndex(of: option) { arguments[i + 1] = value } }
        set("--vast", Repo.media("demo.xml"))
        // The Job's own 80,000: its shard sends for about 8 minutes at the Job's rate, so the signal comes long before
        // the end even when this test's task waits a minute for a thread (8,000 once ended first, exit 0).
        set("--sessions", "80000")
        set("--collector", collector.baseURL)
        set("--metrics", "127.0.0.1:0")
        set("--metrics-linger", "0")
        let running = try RunningVPlay(arguments, in: folder, killAfter: .seconds(540))
        while collector.requests().count < 40 {
            #expect(!running.child.hasExited, "the shard ended before it was stopped: \(running.errors)")
            if running.child.hasExited { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        let (exit, _) = await running.signalAndWait(SIGTERM)
        #expect(!exit.killed && exit.status == 143, "exit \(exit.status): \(running.errors)")
        let log = try Data(contentsOf: running.stdout)
        let report = try #require(try JSONSerialization.jsonObject(with: log) as? [String: Any], "the log is the report")
        let rows = try #require((report["population"] as? [String: Any])?["beacons"] as? [[String: Any]])
        let sent = rows.compactMap { $0["sent"] as? Int }.reduce(0, +), delivered = rows.compactMap { $0["delivered"] as? Int }.reduce(0, +)
        // Every beacon the collector answered is counted delivered, and nothing reached it that is not counted sent
        // (a beacon still in flight when the drain's 2 s ended is sent, not delivered).
        let received = collector.requests().count
        #expect(delivered <= received && received <= sent && delivered > 0, "delivered \(delivered), received \(received), sent \(sent)")
        #expect((report["fleet"] as? [String: Any])?["shards"] as? [Int] == [1])
    }

    @Test func rate_isOverTheWholeFleet_eachShardSendsItsShare() throws {
        var configuration = FleetConfiguration(session: SessionConfiguration(tag: "media/demo.xml"), sessions: 80, mix: try FleetMix(parsing: "complete:1"))
        configuration.rate = 2000
        #expect(configuration.shardRate == 2000)
        configuration.shard = FleetShard(index: 3, count: 8)
        #expect(configuration.shardRate == 250)
    }

    /// Only processes show merge-shards.sh on the shards' stdout: the merged file, and exit 1 naming a missing shard.
    @Test func mergeScript_readsEachShardsLog_andRefusesAnIncompleteSet() async throws {
        let folder = try TemporaryFolder()
        let logs = folder.url.appendingPathComponent("logs")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        // Three shards, each log its report alone (`--json --quiet`), as the Job's pods write them.
        for index in 0..<3 {
            let run = try await vplay(["fleet", "--vast", "media/demo.xml", "--sessions", "30", "--shard", "\(index)/3", "--dry-run", "--json", "--quiet"])
            #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
            try Data(run.stdout.utf8).write(to: logs.appendingPathComponent("\(index).log"))
        }
        // A stand-in kubectl: a pod per shard log present, its log that file.
        let kubectl = try folder.write("kubectl", """
            #!/bin/sh
            logs="\(logs.path)"
            if [ "$1" = get ]; then
              index=$(printf '%s' "$4" | sed 's/.*job-completion-index=//')
              [ -f "$logs/$index.log" ] && echo "pod/vplay-fleet-$index-x"
              exit 0
            fi
            if [ "$1" = logs ]; then
              index=$(printf '%s' "$2" | sed 's|pod/vplay-fleet-||; s|-x$||')
              cat "$logs/$index.log"
            fi
            """)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: kubectl)
        let script = Self.deploy.appendingPathComponent("k8s/merge-shards.sh").path
        let output = folder.url.appendingPathComponent("out/fleet.json").path
        try FileManager.default.createDirectory(atPath: folder.url.appendingPathComponent("out").path, withIntermediateDirectories: true)
        let environment = ["KUBECTL=\(kubectl)", "VPLAY=\(Repo.vplayBinary)"]
        let whole = try await runProcess("/usr/bin/env", environment + [script, "3", output])
        #expect(whole.status == 0, "\(whole.stderr)")
        let merged = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any])
        #expect((merged["fleet"] as? [String: Any])?["shards"] as? [Int] == [0, 1, 2])

        try FileManager.default.removeItem(at: logs.appendingPathComponent("2.log"))
        let partial = try await runProcess("/usr/bin/env", environment + [script, "3", output])
        #expect(partial.status == 1, "a shard with no succeeded pod fails the merge: \(partial.stderr)")
        #expect(partial.stderr.contains("shard 2 has no succeeded pod") && partial.stderr.contains("missing: 2"), "\(partial.stderr)")
    }
}
