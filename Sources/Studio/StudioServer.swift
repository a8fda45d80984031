import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Primitives

/// `vplay studio`'s web server: the page and its assets, the runs API and each run's live event stream, on one
/// HTTP/1.1 listener (loopback unless told otherwise). Every request passes `StudioGuard` first. Each response closes
/// its connection (an event stream stays open until its run ends).
public final class StudioServer: Sendable {
    public let runs: StudioRuns
    private let group: MultiThreadedEventLoopGroup
    private let channel: Locked<(any Channel)?>
    private let guardian: Locked<StudioGuard?>
    public let token: String
    /// The wall clock runs are stamped with (the live one from the command line; a test's own).
    private let now: @Sendable () -> Date
    /// Largest request body: a tag and a capture with some room.
    static let maxBody = StudioRequest.maxTagBytes + StudioRequest.maxCaptureBytes + (1 << 20)

    public init(runs: StudioRuns, token: String = StudioGuard.makeToken(), now: @escaping @Sendable () -> Date) {
        self.runs = runs
        self.now = now
        self.token = token
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        channel = Locked(nil)
        guardian = Locked(nil)
    }

    /// Binds `host:port` (0: a free port) and returns the port bound.
    public func start(host: String, port: Int) async throws -> Int {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(StudioHTTPHandler(server: self))
                }
            }
        let bound = try await bootstrap.bind(host: host, port: port).get()
        let actual = bound.localAddress?.port ?? port
        channel.withLock { $0 = bound }
        guardian.withLock { $0 = StudioGuard(token: token, host: host, port: actual) }
        return actual
    }

    public func stop() async {
        runs.stopAll()
        let bound = channel.withLock { $0 }
        try? await bound?.close()
        try? await group.shutdownGracefully()
    }

    // MARK: Routing

    struct Request: Sendable {
        var head: HTTPRequestHead
        var body: Data
    }

    /// Answers one request on `channel`.
    func respond(_ request: Request, on channel: any Channel) async {
        let head = request.head
        guard let guardian = guardian.withLock({ $0 }) else { return send(channel, .serviceUnavailable, text: "starting") }
        let verdict = guardian.check(method: head.method.rawValue, host: head.headers.first(name: "host"),
                                     origin: head.headers.first(name: "origin"), token: head.headers.first(name: "x-studio-token"))
        if case let .refused(reason) = verdict { return send(channel, .forbidden, text: "vplay studio refused this request: \(reason)\n") }
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        let query = head.uri.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        let parts = path.split(separator: "/").map(String.init)
        switch Route(method: head.method, parts: parts) {
        case .page:
            send(channel, .ok, type: "text/html; charset=utf-8", body: Data(StudioAssets.page(token: token).utf8))
        case let .asset(type, text):
            send(channel, .ok, type: type, body: Data(text.utf8))
        case .list:
            do {
                let entries = try runs.history.list()
                sendJSON(channel, entries.map(Self.json))
            } catch { send(channel, .internalServerError, text: "\(error)") }
        case .start:
            do {
                let decoded = try JSONDecoder().decode(StudioRequest.self, from: request.body)
                let run = try runs.start(decoded, body: request.body, now: now())
                sendJSON(channel, ["id": run.id])
            } catch let error as StudioRequest.Invalid {
                send(channel, .badRequest, text: error.description)
            } catch let error as DecodingError {
                send(channel, .badRequest, text: "the request is not what the studio takes: \(error)")
            } catch {
                send(channel, .internalServerError, text: "\(error)")
            }
        case let .show(id):
            guard let entry = try? runs.history.entry(id: id) else { return send(channel, .notFound, text: "no run \(id)") }
            var object = Self.json(entry)
            if let folder = runs.folder(of: id) {
                let kind = StudioRequest.Kind(rawValue: entry.kind) ?? .run
                object["files"] = StudioFiles.names(for: kind).filter { FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent($0)) }
            }
            sendJSON(channel, object)
        case let .events(id):
            await stream(id, on: channel)
        case let .file(id, name):
            guard let folder = runs.folder(of: id), let entry = try? runs.history.entry(id: id), let kind = StudioRequest.Kind(rawValue: entry.kind),
                  StudioFiles.names(for: kind).contains(name),
                  let data = FileManager.default.contents(atPath: (folder as NSString).appendingPathComponent(name)) else {
                return send(channel, .notFound, text: "no file \(name) for run \(id)")
            }
            let disposition = query.contains("inline") ? "inline" : "attachment; filename=\"vplay-\(id)-\(name)\""
            send(channel, .ok, type: StudioFiles.contentType(of: name), body: data, extra: [("Content-Disposition", disposition)])
        case let .stop(id):
            guard let run = runs.run(id: id) else { return send(channel, .notFound, text: "no run \(id) is playing") }
            run.stop()
            sendJSON(channel, ["stopped": id])
        case let .delete(id):
            do {
                try runs.delete(id: id)
                sendJSON(channel, ["deleted": id])
            } catch { send(channel, .internalServerError, text: "\(error)") }
        case .none:
            send(channel, .notFound, text: "nothing at \(head.method.rawValue) \(path)\n")
        }
    }

    /// What a request asks for, by method and path.
    enum Route {
        case page, asset(type: String, text: String), list, start, show(String), events(String), file(String, String), stop(String), delete(String), none

        init(method: HTTPMethod, parts: [String]) {
            let api = parts.count >= 2 && parts[0] == "api" && parts[1] == "runs"
            let id = parts.count >= 3 ? parts[2] : ""
            switch (method, api, parts.count) {
            case (.GET, false, 0): self = .page
            case (.GET, false, 1): self = StudioAssets.files[parts[0]].map { .asset(type: $0.type, text: $0.text) } ?? .none
            case (.GET, true, 2): self = .list
            case (.POST, true, 2): self = .start
            case (.GET, true, 3): self = .show(id)
            case (.DELETE, true, 3): self = .delete(id)
            case (.GET, true, 4) where parts[3] == "events": self = .events(id)
            case (.POST, true, 4) where parts[3] == "stop": self = .stop(id)
            case (.GET, true, 5) where parts[3] == "files": self = .file(id, parts[4])
            default: self = .none
            }
        }
    }

    static func json(_ entry: StudioHistory.Entry) -> [String: Any] {
        var object: [String: Any] = ["id": entry.id, "kind": entry.kind, "title": entry.title, "created": entry.created, "state": entry.state]
        object["exitCode"] = entry.exitCode ?? NSNull()
        object["arguments"] = (try? JSONSerialization.jsonObject(with: Data(entry.arguments.utf8))) ?? []
        object["summary"] = entry.summary.isEmpty ? NSNull() : (try? JSONSerialization.jsonObject(with: Data(entry.summary.utf8))) ?? NSNull()
        return object
    }

    // MARK: Event stream

    private func stream(_ id: String, on channel: any Channel) async {
        guard let run = runs.run(id: id) else {
            // A run of an earlier launch: its stream from the folder, then its end.
            guard let folder = runs.folder(of: id), let entry = try? runs.history.entry(id: id) else { return send(channel, .notFound, text: "no run \(id)") }
            writeStreamHead(channel)
            let kind = StudioRequest.Kind(rawValue: entry.kind) ?? .run
            let text = (try? String(contentsOfFile: (folder as NSString).appendingPathComponent(StudioFiles.stdout(for: kind)), encoding: .utf8)) ?? ""
            var chunk = ""
            for line in text.split(separator: "\n") where !line.isEmpty { chunk += Self.sse("record", String(line)) }
            let lint = (try? String(contentsOfFile: (folder as NSString).appendingPathComponent("lint.ndjson"), encoding: .utf8)) ?? ""
            for line in lint.split(separator: "\n") where !line.isEmpty { chunk += Self.sse("finding", String(line)) }
            let files = StudioFiles.names(for: kind).filter { FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent($0)) }
            let end: [String: Any] = ["exitCode": entry.exitCode ?? -1, "state": entry.state, "files": files]
            chunk += Self.sse("end", String(decoding: (try? JSONSerialization.data(withJSONObject: end, options: [.sortedKeys])) ?? Data(), as: UTF8.self))
            channel.write(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: chunk))), promise: nil)
            channel.writeAndFlush(HTTPServerResponsePart.end(nil)).whenComplete { _ in channel.close(promise: nil) }
            return
        }
        writeStreamHead(channel)
        // Events are batched per event-loop turn: a fleet's or a fast virtual run's hundreds of lines a second
        // reach the page as a few writes.
        let batch = EventBatch(channel: channel)
        let subscriber = run.subscribe { event in batch.add(Self.sse(event.name, event.data), last: event.name == "end") }
        if let subscriber {
            channel.closeFuture.whenComplete { _ in run.unsubscribe(subscriber) }
        }
    }

    private func writeStreamHead(_ channel: any Channel) {
        var headers = Self.securityHeaders
        headers.add(name: "Content-Type", value: "text/event-stream")
        headers.add(name: "Connection", value: "close")
        channel.writeAndFlush(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers)), promise: nil)
    }

    static func sse(_ name: String, _ data: String) -> String {
        "event: \(name)\ndata: \(data.replacingOccurrences(of: "\n", with: "\ndata: "))\n\n"
    }

    // MARK: Responses

    static var securityHeaders: HTTPHeaders {
        HTTPHeaders([("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer"),
         ("Content-Security-Policy", "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")])
    }

    private func sendJSON(_ channel: any Channel, _ object: Any) {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("null".utf8)
        send(channel, .ok, type: "application/json", body: data)
    }

    private func send(_ channel: any Channel, _ status: HTTPResponseStatus, text: String) {
        send(channel, status, type: "text/plain; charset=utf-8", body: Data(text.utf8))
    }

    private func send(_ channel: any Channel, _ status: HTTPResponseStatus, type: String, body: Data, extra: [(String, String)] = []) {
        var headers = Self.securityHeaders
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Content-Length", value: "\(body.count)")
        headers.add(name: "Connection", value: "close")
        for (name, value) in extra { headers.add(name: name, value: value) }
        channel.write(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers)), promise: nil)
        channel.write(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil)
        channel.writeAndFlush(HTTPServerResponsePart.end(nil)).whenComplete { _ in channel.close(promise: nil) }
    }
}
