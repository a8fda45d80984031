import Foundation

/// Client-side tracking documents written from MediaTailor's public pages ("Client-side beaconing", "Client-side
/// ad-tracking schema and properties"): the field names and nesting they give, the example's numbers.
enum TrackingDocuments {
    /// One tracking event as the schema writes it.
    static func event(_ type: String, at start: String, id: String = "8104385", duration: String = "0.0", urls: [String]? = nil) -> String {
        let beacons = (urls ?? ["http://exampleadserver.com/tracking?event=\(type)"]).map { "\"\($0)\"" }.joined(separator: ", ")
        return """
            {"beaconUrls": [\(beacons)], "duration": "PT\(duration)S", "durationInSeconds": \(duration), "eventId": "\(id)",
             "eventType": "\(type)", "startTime": "PT\(start)S", "startTimeInSeconds": \(start)}
            """
    }

    /// The documented example: a 15.1 s ad at 17.817 s, its impression, start, quartiles and complete at their
    /// documented times (the page's `startTimeInSeconds`), and the avail's breakStart and breakEnd.
    static func mediaTailorExample(extraEvents: [String] = [], firstQuartile: String = "21.592") -> String {
        let events = [
            event("impression", at: "17.817", duration: "15.1"),
            event("start", at: "17.817"),
            event("firstQuartile", at: firstQuartile, id: "8104386"),
            event("midpoint", at: "25.367", id: "8104387"),
            event("thirdQuartile", at: "29.142", id: "8104388"),
            event("complete", at: "32.917", id: "8104389"),
        ] + extraEvents
        return """
            {"avails": [{
              "adBreakTrackingEvents": [\(event("breakStart", at: "17.817", id: "b1", urls: ["http://exampleadserver.com/break?e=start&cp=[CONTENTPLAYHEAD]&bp=[BREAKPOSITION]"])),
                                        \(event("breakEnd", at: "32.917", id: "b2", urls: ["http://exampleadserver.com/break?e=end"]))],
              "ads": [{"adId": "8104385", "adParameters": "", "adSystem": "2.0", "adTitle": "example", "adVerifications": [], "companionAds": [],
                       "creativeId": "1234", "duration": "PT15.100000078S", "durationInSeconds": 15.1, "extensions": [],
                       "mediaFiles": {"mediaFilesList": [], "mezzanine": ""}, "skipOffset": null,
                       "startTime": "PT17.817798612S", "startTimeInSeconds": 17.817,
                       "trackingEvents": [\(events.joined(separator: ",\n"))], "vastAdId": ""}],
              "availId": "8104385", "availProgramDateTime": null, "duration": "PT15.100000078S", "durationInSeconds": 15.1, "meta": null,
              "nonLinearAdsList": [], "startTime": "PT17.817798612S", "startTimeInSeconds": 17.817}],
             "nextToken": null, "nonLinearAvails": []}
            """
    }

    /// An avail of one ad of `duration` s at `start` s, its timed events by the rule, `id` naming avail and ad.
    static func avail(_ id: String, start: Double, duration: Double) -> String {
        func at(_ fraction: Double) -> String { String(format: "%.3f", start + duration * fraction) }
        let events = [("impression", 0.0), ("start", 0.0), ("firstQuartile", 0.25), ("midpoint", 0.5), ("thirdQuartile", 0.75), ("complete", 1.0)]
            .map { event($0.0, at: at($0.1), id: id, urls: ["http://t.example/\(id)/\($0.0)?ap=[ADPLAYHEAD]"]) }
        return """
            {"availId": "\(id)", "startTimeInSeconds": \(start), "durationInSeconds": \(duration), "adBreakTrackingEvents": [],
             "ads": [{"adId": "\(id)", "startTimeInSeconds": \(start), "durationInSeconds": \(duration), "trackingEvents": [\(events.joined(separator: ","))]}]}
            """
    }

    static func document(_ avails: [String], nextToken: String? = nil) -> String {
        "{\"avails\": [\(avails.joined(separator: ","))]" + (nextToken.map { ", \"nextToken\": \"\($0)\"" } ?? "") + "}"
    }
}
