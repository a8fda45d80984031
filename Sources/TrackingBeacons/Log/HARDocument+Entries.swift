import Networking
import Foundation

extension HARDocument {
    /// The entries of one sent attempt: one per hop, the attempt's failure (not an HTTP status, which shows for
    /// itself) on the last. An attempt without recorded hops (a recording transport, one cut off at session end)
    /// is one entry made from the record.
    static func entries(of record: BeaconRecord, userAgent: String) -> [Entry] {
        guard let sentAt = record.sentAt else { return [] }
        let hops = record.hops.isEmpty ? [Self.hop(of: record, userAgent: userAgent)] : record.hops
        let beaconURL = (record.requestedURL ?? record.url) == record.url ? nil : record.url
        let error: String? = if case .httpStatus = record.failure { nil } else { record.error }
        return hops.enumerated().map { index, hop in
            let isLast = index == hops.count - 1
            let started = sentAt + (microseconds(hop.start) + 500) / 1000
            let timings = Timings(hop)
            let place = hops.count > 1 ? ", request \(index + 1) of \(hops.count)" : ""
            return Entry(
                pageref: pageID,
                startedDateTime: dateTime(started),
                time: milliseconds(microseconds: [hop.connect, hop.wait, hop.receive].compactMap { $0.map(microseconds) }.reduce(0, +)),
                request: Request(url: hop.url, headers: hop.requestHeaders.map(NameValue.init), queryString: query(of: hop.url),
                                 headersSize: hop.requested && hop.connect == nil && hop.requestHeadersSize > 0 ? hop.requestHeadersSize : -1),
                response: Response(hop, startedAt: started, error: isLast ? error : nil),
                timings: timings,
                comment: "\(record.event) from \(record.source)\(record.planned.adBreak.map { " in break \($0)" } ?? "") at playhead \(MacroFormat.playhead(record.playhead))\(place)",
                _vplay: VPlayFields(event: record.event, source: record.source, template: record.template,
                                    playhead: BeaconRecord.seconds(record.playhead), clock: BeaconRecord.seconds(record.clock),
                                    attempt: record.attempt, beaconURL: beaconURL, hop: index))
        }
    }

    /// The one request a record without hops stands for, from what the record kept: the final answer's status and
    /// headers, the latency (spent connecting when the failure was a failed connection), the body's bytes.
    static func hop(of record: BeaconRecord, userAgent: String) -> BeaconHop {
        var hop = BeaconHop(url: record.requestedURL ?? record.url, requestHeaders: [HeaderField(name: "User-Agent", value: userAgent)],
                            status: record.status, reasonPhrase: record.status.map(reason) ?? "",
                            httpVersion: record.status == nil ? "" : "HTTP/1.1", responseHeaders: record.responseHeaders,
                            wait: record.latency ?? .zero, bodySize: record.status == nil ? nil : record.bytes)
        if record.status == nil, let failure = record.failure, failedConnecting(failure) {
            hop.connect = hop.wait
            hop.wait = .zero
        }
        return hop
    }

    /// Whether `failure` happened while connecting, before a request was written.
    static func failedConnecting(_ failure: BeaconFailure) -> Bool {
        switch failure {
        case .connectionRefused, .dnsLookupFailed, .couldNotConnect, .connectTimedOut, .tlsHandshakeTimedOut, .tlsHandshakeFailed: true
        default: false
        }
    }
}

extension HARDocument.NameValue {
    init(_ field: HeaderField) { self.init(name: field.name, value: field.value) }
}

extension HARDocument.Timings {
    /// A hop's phases in ms, each rounded to the microsecond.
    init(_ hop: BeaconHop) {
        self.init(connect: hop.connect.map { HARDocument.milliseconds(microseconds: HARDocument.microseconds($0)) } ?? -1,
                  wait: HARDocument.milliseconds(microseconds: HARDocument.microseconds(hop.wait)),
                  receive: HARDocument.milliseconds(microseconds: HARDocument.microseconds(hop.receive)))
    }
}

extension HARDocument.Response {
    /// A hop's answer: status 0 and an empty `statusText` when none came, `error` (the attempt's failure) in
    /// `_error`; cookies from its `Set-Cookie` fields (expiry from `Max-Age` counted from `startedAt`, ms since 1970).
    init(_ hop: BeaconHop, startedAt: Int64, error: String?) {
        let location = hop.status.map { (300..<400).contains($0) } == true ? HARDocument.header("Location", in: hop.responseHeaders) : nil
        let bodySize = hop.bodySize ?? (hop.status == nil ? 0 : -1)
        self.init(status: hop.status ?? 0, statusText: hop.status == nil ? "" : hop.reasonPhrase,
                  httpVersion: hop.httpVersion,
                  cookies: hop.responseHeaders.filter { $0.name.caseInsensitiveCompare("Set-Cookie") == .orderedSame }
                      .compactMap { HARDocument.Cookie(setCookie: $0.value, receivedAt: startedAt) },
                  headers: hop.responseHeaders.map(HARDocument.NameValue.init),
                  content: HARDocument.Content(size: max(0, bodySize),
                                               mimeType: HARDocument.header("Content-Type", in: hop.responseHeaders) ?? "x-unknown"),
                  redirectURL: location ?? "", headersSize: hop.responseHeadersSize ?? -1, bodySize: bodySize,
                  _error: hop.status == nil ? (error ?? "no response") : error)
    }
}
