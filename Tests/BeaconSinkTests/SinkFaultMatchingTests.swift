import BeaconSink
import Testing

@Suite struct SinkFaultMatchingTests {
    @Test(arguments: [
        ("/mid", "/midpoint", true), ("/mid", "/mi", false), ("/", "/anything", true),
        ("*", "/", true), ("*", "/a/b?c", true), ("/t/*/c", "/t/x/y/c", true), ("/t/*/c", "/t/x/cc", false),
        ("*.gif", "/p.gif", true), ("*.gif", "/p.gifx", false), ("/a*b*c", "/abc", true), ("/a*b*c", "/acb", false),
        ("/a*a", "/a", false), ("/a*a", "/aa", true), ("/%2F*", "/%2Fx", true), ("/x*", "/y", false),
    ])
    func faultPattern_onPath_matchesAsDocumented(pattern: String, path: String, expected: Bool) {
        #expect(SinkFault(pattern: pattern, kind: .reset).matches(path: path, target: path + "?q=1") == expected)
    }

    @Test func faultPattern_withQuestionMark_matchesTheWholeTarget() {
        let pattern = SinkFault(pattern: "/q?event=skip", kind: .reset)
        #expect(pattern.matches(path: "/q", target: "/q?event=skip&cb=1"))
        #expect(!pattern.matches(path: "/q", target: "/q?event=start"))
        #expect(SinkFault(pattern: "/q?*e=1", kind: .reset).matches(path: "/q", target: "/q?a=2&e=1"))
    }
}
