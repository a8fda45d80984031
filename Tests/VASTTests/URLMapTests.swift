import Primitives
import Foundation
import Testing
import TestSupport
@testable import VAST

@Suite("URL map fetcher")
struct URLMapTests {
    func withMappedDirectory(_ body: (URL, URL) async throws -> Void) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("vast-map-\(UUID().uuidString)")
        let mapped = root.appendingPathComponent("mapped")
        try FileManager.default.createDirectory(at: mapped.appendingPathComponent("sub dir"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("<VAST version=\"4.1\"/>".utf8).write(to: mapped.appendingPathComponent("sub dir/tag.xml"))
        try Data("SECRET".utf8).write(to: root.appendingPathComponent("secret.xml"))
        try await body(root, mapped)
    }

    @Test func mapping_parsesPrefixEqualsDirectoryRelativeToABase() throws {
        let base = URL(fileURLWithPath: "/work/main", isDirectory: true)
        let mapping = try #require(URLMapping(argument: "https://host.example/path/=./local/dir/", relativeTo: base))
        #expect(mapping.prefix == "https://host.example/path/")
        #expect(mapping.directory.path == "/work/main/local/dir")
        #expect(URLMapping(argument: "no-equals-sign", relativeTo: base) == nil)
        #expect(URLMapping(argument: "file:///etc/=./x", relativeTo: base) == nil)
    }

    @Test func mappedURL_isReadFromTheDirectory_withPercentDecodingAndNoQuery() async throws {
        try await withMappedDirectory { _, mapped in
            let fetcher = URLMapFetcher(mappings: [URLMapping(prefix: "https://ads.example/vast/", directory: mapped)])
            let tag = try await fetcher.fetch(URL(string: "https://ads.example/vast/sub%20dir/tag.xml?cb=123")!, timeout: .seconds(1))
            #expect(String(decoding: tag.data, as: UTF8.self).hasPrefix("<VAST"))
        }
    }

    @Test(arguments: ["https://ads.example/vast/../secret.xml", "https://ads.example/vast/%2e%2e/secret.xml",
                      "https://ads.example/vast/sub%20dir/%2E%2E/%2E%2E/secret.xml", "https://ads.example/vast/..%2Fsecret.xml",
                      "https://ads.example/vast/"])
    func dotDotEscape_isRefused(_ url: String) async throws {
        try await withMappedDirectory { _, mapped in
            let fetcher = URLMapFetcher(mappings: [URLMapping(prefix: "https://ads.example/vast/", directory: mapped)])
            let u = try #require(URL(string: url), "the case must be a URL, or it tests nothing")
            await #expect(throws: VASTError.self) { _ = try await fetcher.fetch(u, timeout: .seconds(1)) }
        }
    }

    @Test func symlinkOutOfTheDirectory_isRefused() async throws {
        try await withMappedDirectory { root, mapped in
            try FileManager.default.createSymbolicLink(at: mapped.appendingPathComponent("link.xml"),
                                                       withDestinationURL: root.appendingPathComponent("secret.xml"))
            let fetcher = URLMapFetcher(mappings: [URLMapping(prefix: "https://ads.example/vast/", directory: mapped)])
            await #expect(throws: VASTError.self) {
                _ = try await fetcher.fetch(URL(string: "https://ads.example/vast/link.xml")!, timeout: .seconds(1))
            }
        }
    }

    @Test func unmappedURL_goesToTheNextFetcher() async throws {
        let next = InMemoryTagFetcher(xml: ["https://other.example/t": "<VAST/>"])
        let fetcher = URLMapFetcher(mappings: [], next: next)
        _ = try await fetcher.fetch(URL(string: "https://other.example/t")!, timeout: .seconds(1))
        #expect(await next.requestedURLs.count == 1)
    }

    @Test func fileTagFetcher_servesOnlyTheNamedFile() async throws {
        try await withMappedDirectory { root, mapped in
            let named = mapped.appendingPathComponent("sub dir/tag.xml")
            let fetcher = FileTagFetcher(fileURL: named)
            _ = try await fetcher.fetch(named, timeout: .seconds(1))
            await #expect(throws: VASTError.self) {
                _ = try await fetcher.fetch(root.appendingPathComponent("secret.xml"), timeout: .seconds(1))
            }
        }
    }
}
