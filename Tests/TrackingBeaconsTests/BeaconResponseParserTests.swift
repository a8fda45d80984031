import Foundation
import NIOCore
import Testing
@testable import TrackingBeacons

/// The pooled transport's HTTP/1.x answer reader, fed the same bytes split at every size: the same events come
/// out, whatever the reads look like.
struct BeaconResponseParserTests {
    typealias Event = BeaconResponseParser.Event
    typealias Head = BeaconResponseParser.Head

    /// The events `text` makes, fed `size` bytes at a time; consecutive body counts are added up (how the bytes
    /// are split is not an event).
    static func events(_ text: String, in size: Int, keepsHeaders: Bool = false) throws(BeaconResponseParser.Malformed) -> (events: [Event], parser: BeaconResponseParser) {
        var parser = BeaconResponseParser(keepsHeaders: keepsHeaders)
        var events: [Event] = []
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let piece = ByteBuffer(bytes: bytes[offset..<min(bytes.count, offset + size)])
            offset += size
            try parser.parse(piece) { event in
                if case let .body(more) = event, case let .body(counted)? = events.last {
                    events[events.count - 1] = .body(counted + more)
                } else {
                    events.append(event)
                }
                return true
            }
        }
        return (events, parser)
    }

    /// The events of `text` fed whole, each of them checked to be the same fed 1, 2, 3, … bytes at a time.
    static func eventsAtEverySplit(_ text: String, keepsHeaders: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) throws -> [Event] {
        let whole = try events(text, in: text.utf8.count, keepsHeaders: keepsHeaders).events
        for size in 1..<max(2, text.utf8.count) {
            let split = try events(text, in: size, keepsHeaders: keepsHeaders).events
            #expect(split == whole, "fed \(size) bytes at a time", sourceLocation: sourceLocation)
        }
        return whole
    }

    static func malformed(_ text: String) -> String? {
        do {
            _ = try events(text, in: text.utf8.count)
            return nil
        } catch {
            return error.why
        }
    }

    /// A head with the same bytes as the last is taken from the last parse; any byte that differs is parsed anew.
    @Test func answersInARow_eachReadByItsOwnBytes_whenTheyRepeatTheLastHeadOrDifferFromIt() throws {
        let noContent = "HTTP/1.1 204 No Content\r\nServer: nginx/1.22.1\r\nDate: Tue, 24 Nov 2026 16:00:00 GMT\r\nConnection: keep-alive\r\n\r\n"
        let nextSecond = noContent.replacingOccurrences(of: "16:00:00", with: "16:00:01")
        let closing = noContent.replacingOccurrences(of: "keep-alive", with: "close     ")
        let withBody = "HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nContent-Length: 3\r\n\r\nGIF"
        let kept = Head(status: 204, headers: [], location: nil, keepAlive: true)
        let stream = noContent + noContent + withBody + noContent + nextSecond + noContent + closing
        let expected: [Event] = [.head(kept), .end, .head(kept), .end,
                                 .head(Head(status: 200, headers: [], location: nil, keepAlive: true)), .body(3), .end,
                                 .head(kept), .end, .head(kept), .end, .head(kept), .end,
                                 .head(Head(status: 204, headers: [], location: nil, keepAlive: false)), .end]
        #expect(try Self.eventsAtEverySplit(stream) == expected)
        // Fields kept: the repeated head's are its own (the next second's `Date`).
        let fields = try Self.events(noContent + nextSecond + nextSecond, in: 1024, keepsHeaders: true).events.compactMap { event -> String? in
            if case let .head(head) = event { return head.headers.first { $0.name == "Date" }?.value }
            return nil
        }
        #expect(fields == ["Tue, 24 Nov 2026 16:00:00 GMT", "Tue, 24 Nov 2026 16:00:01 GMT", "Tue, 24 Nov 2026 16:00:01 GMT"])
    }

    @Test func nginxNoContent_isAKeepAliveHeadAndAnEnd_withItsFieldsOnlyWhenKept() throws {
        let answer = "HTTP/1.1 204 No Content\r\nServer: nginx/1.22.1\r\nDate: Tue, 24 Nov 2026 16:00:00 GMT\r\nConnection: keep-alive\r\n\r\n"
        #expect(try Self.eventsAtEverySplit(answer) == [.head(Head(status: 204, headers: [], location: nil, keepAlive: true)), .end])
        let kept = try Self.eventsAtEverySplit(answer, keepsHeaders: true)
        #expect(kept.first == .head(Head(status: 204, headers: [.init(name: "Server", value: "nginx/1.22.1"),
                                                                .init(name: "Date", value: "Tue, 24 Nov 2026 16:00:00 GMT"),
                                                                .init(name: "Connection", value: "keep-alive")],
                                         location: nil, keepAlive: true)))
    }

    @Test func contentLengthBody_isCountedToItsLength_andTheNextAnswerFollows() throws {
        let two = "HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nhello world" + "HTTP/1.1 404 Not Found\r\ncontent-length: 3\r\n\r\nno!"
        #expect(try Self.eventsAtEverySplit(two) == [.head(Head(status: 200, headers: [], keepAlive: true)), .body(11), .end,
                                                     .head(Head(status: 404, headers: [], keepAlive: true)), .body(3), .end])
    }

    @Test func chunkedBody_withExtensionsAndTrailers_isCountedByItsChunks() throws {
        let answer = "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n5;name=value\r\nhello\r\n1A \r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nX-Trailer: 1\r\n\r\n"
            + "HTTP/1.1 204 No Content\r\n\r\n"
        #expect(try Self.eventsAtEverySplit(answer) == [.head(Head(status: 200, headers: [], keepAlive: true)), .body(31), .end,
                                                        .head(Head(status: 204, headers: [], keepAlive: true)), .end])
    }

    @Test func interimAnswers_areSkipped_butSwitchingProtocolsIsRefused() throws {
        #expect(try Self.eventsAtEverySplit("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n")
            == [.head(Head(status: 204, headers: [], keepAlive: true)), .end])
        #expect(Self.malformed("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n") != nil)
    }

    @Test func connectionReuse_followsTheVersionAndTheConnectionField() throws {
        let reuse = { (answer: String) throws -> Bool? in
            if case let .head(head)? = try Self.events(answer, in: answer.utf8.count).events.first { return head.keepAlive }
            return nil
        }
        #expect(try reuse("HTTP/1.1 204 No Content\r\n\r\n") == true)
        #expect(try reuse("HTTP/1.1 204 No Content\r\nConnection: Close\r\n\r\n") == false)
        #expect(try reuse("HTTP/1.1 204 No Content\r\nConnection: upgrade, close\r\n\r\n") == false)
        #expect(try reuse("HTTP/1.0 204 No Content\r\n\r\n") == false)
        #expect(try reuse("HTTP/1.0 204 No Content\r\nConnection: Keep-Alive\r\n\r\n") == true)
        // Both framings: chunked wins, and the connection is not trusted again (RFC 9112 §6.3).
        #expect(try reuse("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n") == false)
    }

    @Test func bodyWithNoLength_endsAtTheClose_andTheConnectionIsNotReused() throws {
        let (events, parser) = try Self.events("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nsome bytes", in: 7)
        #expect(events == [.head(Head(status: 200, headers: [], keepAlive: false)), .body(10)])
        #expect(parser.endsAtClose)
        let (_, between) = try Self.events("HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 2", in: 100)
        #expect(!between.endsAtClose, "a close while a head is coming is no answer's end")
    }

    @Test func redirectTarget_isReadWithoutKeepingHeaders_andAFoldedLineContinuesIt() throws {
        let events = try Self.eventsAtEverySplit("HTTP/1.1 302 Found\r\nLocation: /next?a=1\r\n\tb\r\nContent-Length: 0\r\n\r\n")
        #expect(events == [.head(Head(status: 302, headers: [], location: "/next?a=1 b", keepAlive: true)), .end])
    }

    @Test func bareLineFeeds_andEmptyLinesBeforeTheStatusLine_areAccepted() throws {
        #expect(try Self.eventsAtEverySplit("\r\n\nHTTP/1.1 200 OK\nContent-Length: 2\n\nok")
            == [.head(Head(status: 200, headers: [], keepAlive: true)), .body(2), .end])
    }

    @Test(arguments: [
        "HTTP/2 200 OK\r\n\r\n",
        "ICY 200 OK\r\n\r\n",
        "HTTP/1.1 20 OK\r\n\r\n",
        "HTTP/1.1 2000 OK\r\n\r\n",
        "HTTP/1.1 099 Low\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length : 3\r\n\r\n",
        "HTTP/1.1 200 OK\r\nNo colon here\r\n\r\n",
        "HTTP/1.1 200 OK\r\nX: a\u{0}b\r\n\r\n",
        "HTTP/1.1 200 OK\r\n Folded: first\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n 2\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1000000000000000\r\n",
    ])
    func notAnAnswer_isMalformed(_ text: String) {
        #expect(Self.malformed(text) != nil, "\(text.debugDescription)")
    }

    @Test func aHeadLongerThanTheLimit_isRefused_evenWhenItsEndNeverComes() {
        let long = "HTTP/1.1 200 OK\r\n" + String(repeating: "X-Filler: 0123456789abcdef\r\n", count: BeaconResponseParser.maxHeadBytes / 28 + 1)
        #expect(Self.malformed(long) != nil)
        // Whole, in reads of 64 KiB (its end in the read that takes it past the limit): refused all the same.
        #expect(throws: BeaconResponseParser.Malformed.self) { _ = try Self.events(long + "\r\n", in: 64 * 1024) }
        #expect(throws: BeaconResponseParser.Malformed.self) { _ = try Self.events(long + "\r\n", in: 1 << 20) }
        var parser = BeaconResponseParser(keepsHeaders: false)
        #expect(throws: BeaconResponseParser.Malformed.self) {
            for _ in 0..<(BeaconResponseParser.maxHeadBytes / 1024 + 2) {
                try parser.parse(ByteBuffer(repeating: 0x41, count: 1024)) { _ in true }
            }
        }
    }

    @Test func stoppingAtAnEvent_leavesTheRestUnread() throws {
        var parser = BeaconResponseParser(keepsHeaders: false)
        var seen: [Event] = []
        try parser.parse(ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhelloHTTP/1.1 204 No Content\r\n\r\n")) { event in
            seen.append(event)
            return seen.count < 2
        }
        #expect(seen == [.head(Head(status: 200, headers: [], keepAlive: true)), .body(5)])
    }
}
