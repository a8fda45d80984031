import AdSession
import Networking
import ArgumentParser
import Foundation
import VAST

/// The options that say which ad to load and how: shared by `run`, `inspect` and `fleet`.
struct TagOptions: ParsableArguments {
    @Option(name: .customLong("vast"), help: ArgumentHelp("The VAST tag: a file path or an http(s) URL (run plays a VMAP document given here as VMAP).", valueName: "path|url"), completion: .file())
    var vastOption: String?

    @Option(help: ArgumentHelp("A VMAP document (file or http(s) URL); its ad breaks play as pods on a simulated content clock (docs/guides/vmap.md).", valueName: "path|url"),
            completion: .file())
    var vmap: String?

    @Option(help: ArgumentHelp("run, inspect, audit: a stitcher's client-side tracking document (MediaTailor's JSON, or a DASH manifest with SVTA2053 signalling; file or http(s) URL): run fires its beacons on a simulated stream clock, inspect lists them, audit judges a capture against them (docs/guides/ssai.md).", valueName: "path|url"),
            completion: .file())
    var trackingDoc: String?

    @Option(help: ArgumentHelp("run, inspect, audit: an HLS content media playlist with interstitials (EXT-X-DATERANGE CLASS=\"com.apple.hls.interstitial\"; file or http(s) URL): each interstitial plays as a break on the content's clock, its assets as ads, its SVTA2053 signalling as their tracking (docs/guides/ssai.md).", valueName: "path|url"),
            completion: .file())
    var interstitials: String?

    @Option(help: ArgumentHelp("An OpenRTB 2.x bid response that won (file or http(s) URL; or {\"request\": ..., \"response\": ...}): its highest bid's adm plays (or what its nurl answers when it has no adm), with ${AUCTION_PRICE} and the other auction macros filled; nurl fires as the win notice, burl as --billing-on says, lurl never (docs/guides/qa.md).", valueName: "path|url"),
            completion: .file())
    var bid: String?

    @Option(help: ArgumentHelp("With --bid: the clearing price ${AUCTION_PRICE} carries, a decimal in the bid's currency and units, or AUDIT (default: the bid's own price, a first-price auction).", valueName: "price"),
            transform: Self.price)
    var price: BidSource.Price?

    @Option(help: ArgumentHelp("With --bid: when burl fires: render (the ad is ready to show, shown or not), impression (its first frame; default) or viewable (the MRC rule; measured even when the tag asks for no viewability).", valueName: "render|impression|viewable"))
    var billingOn: BidSource.Billing?

    @Sendable static func price(_ text: String) throws -> BidSource.Price {
        guard let price = BidSource.Price(parsing: text) else { throw ValidationError("--price must be a decimal of 0 or more (the clearing price) or AUDIT") }
        return price
    }

    /// The document named: `--vast`, `--vmap`, `--tracking-doc`, `--interstitials` or `--bid`.
    var vast: String { vastOption ?? vmap ?? trackingDoc ?? interstitials ?? bid ?? "" }

    /// How a session reads the document: as VMAP (`--vmap`), as a content playlist's interstitials
    /// (`--interstitials`), or by its root element (`--vast`).
    var sessionMode: VMAPSessionRunner.Mode { interstitials != nil ? .interstitials : vmap != nil ? .vmap : .detect }

    /// The option that named the document.
    var documentOption: String {
        vmap != nil ? "--vmap" : trackingDoc != nil ? "--tracking-doc" : interstitials != nil ? "--interstitials" : bid != nil ? "--bid" : "--vast"
    }

    @Option(help: ArgumentHelp("Read URLs under PREFIX (tags and media) from the local DIR, for offline replay; repeatable.", valueName: "PREFIX=DIR"),
            transform: Self.mapping)
    var map: [URLMapping] = []

    @Option(help: ArgumentHelp("Relative URLs in the tag file resolve against this folder instead of the file's own (a tag saved away from its media; the studio's pasted tags).", valueName: "dir"),
            completion: .directory)
    var base: String?

    @Option(parsing: .unconditional, help: .withDefault("Most wrappers followed before error 302 (VAST 4.x: players need accept only 5).", 5, valueName: "N"),
            transform: OptionValue.integer(in: 0..., else: "--max-wrappers must be 0 or more"))
    var maxWrappers = 5

    @Option(help: .withDefault("Seconds for the first tag request, then for each wrapper (IMA iOS: 8 and 4).", TagTimeouts.ima, valueName: "first,each"),
            transform: TagTimeouts.init(parsing:))
    var tagTimeouts = TagTimeouts.ima

    @Option(parsing: .unconditional, help: ArgumentHelp("Target bandwidth in kbps for choosing the media file (highest bitrate not above it); auto: the --network profile's rate.", valueName: "kbps|auto"),
            transform: Self.bandwidth)
    var bandwidth: Bandwidth?

    /// `--bandwidth`: kbps, or the simulated network's rate.
    enum Bandwidth: Equatable, Sendable {
        case kbps(Int)
        case auto
    }

    @Sendable static func bandwidth(_ text: String) throws -> Bandwidth {
        if text.lowercased() == "auto" { return .auto }
        return .kbps(try OptionValue.integer(in: 1..., else: "--bandwidth must be a positive number of kbps, or auto")(text))
    }

    @Option(help: ArgumentHelp("Screen size for choosing the media file (closest area not above it).", valueName: "WxH"),
            transform: ScreenSize.init(parsing:))
    var screen: ScreenSize?

    @Flag(help: "With both progressive files and streaming manifests (HLS, DASH) in the tag, choose among the manifests (default: the progressive files; HLS and DASH are the fallback).")
    var preferStreaming = false

    @Option(help: "An ad whose InteractiveCreativeFile has variableDuration=\"true\": refuse it with 409 (SIMID 1.2 section 5: a pod plays its next ad) or fire 409 and play its MediaFile.")
    var variableDuration: VariableDurationPolicy = .refuse

    @Option(help: ArgumentHelp("Force a media file by its id attribute or 1-based position.", valueName: "id"))
    var mediaFile: String?

    @Option(help: ArgumentHelp("Choose low/mid/high quality by the Adcash rule from the last download saved in FILE (none yet: low); time this download and save it.", valueName: "file"), completion: .file())
    var adcashState: String?

    @Flag(help: "Refuse tags, wrappers, media and beacons whose host is or resolves to a private, link-local (169.254.0.0/16: cloud metadata) or unique-local address; loopback stays allowed.")
    var denyPrivateNetworks = false

    @Flag(help: "Refuse loopback hosts (127.0.0.0/8, ::1, localhost) and the unspecified address (0.0.0.0, ::), which reaches this machine, too.")
    var denyLoopback = false

    @Option(help: ArgumentHelp("Send tags, media and beacons through this HTTP proxy (Charles, mitmproxy): http://host:port. Without it, HTTP_PROXY, HTTPS_PROXY, ALL_PROXY and NO_PROXY (CIDR ranges too) are read as curl reads them; NO_PROXY applies to both.", valueName: "url"))
    var proxy: String?

    @Option(name: .customLong("ca-cert"),
            help: ArgumentHelp("Also trust the certificate authorities in this PEM file for https tags, media and beacons (besides the system's): the CA of a proxy that intercepts TLS (Charles, mitmproxy: ~/.mitmproxy/mitmproxy-ca-cert.pem) or of a test server.", valueName: "file"),
            completion: .file())
    var caCert: String?

    /// The proxy settings of `--proxy`, `--ca-cert` and the environment; a usage error when a proxy is not an http
    /// proxy URL or the CA file holds no certificate.
    func proxySettings() throws -> ProxySettings {
        do {
            let settings = try ProxySettings.resolve(option: proxy, environment: ProcessInfo.processInfo.environment)
            return try caCert.map { path throws(ProxySettings.Invalid) in try settings.trusting(caFile: path) } ?? settings
        } catch {
            throw ValidationError(error.description)
        }
    }

    func validate() throws {
        _ = try proxySettings()
        switch [vastOption, vmap, trackingDoc, interstitials, bid].compactMap({ $0 }).count {
        case 0: throw ValidationError("Missing expected argument '--vast <path|url>'")
        case 1: break
        default: throw ValidationError("--vast, --vmap, --tracking-doc, --interstitials and --bid exclude each other (run plays a VMAP document given to --vast as VMAP)")
        }
        if bid == nil, price != nil || billingOn != nil {
            throw ValidationError("\(price != nil ? "--price" : "--billing-on"): goes with --bid (an OpenRTB bid response)")
        }
    }

    /// `PREFIX=DIR`, a relative DIR taken from the current directory.
    @Sendable static func mapping(_ text: String) throws -> URLMapping {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        guard let mapping = URLMapping(argument: text, relativeTo: cwd) else {
            throw ValidationError("--map \(text): expected PREFIX=DIR with an http(s) PREFIX")
        }
        return mapping
    }

    /// The tag's path when it is a local file (read as `TagLoader` reads it), nil for an http(s) URL.
    var localTag: String? {
        if let url = URL(string: vast), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" { return nil }
        return vast.hasPrefix("file:") ? (URL(string: vast)?.path ?? vast) : vast
    }

    /// The files these options read (the Adcash state is read too, and checked as an output: it is rewritten).
    var inputs: [(option: String, path: String?)] { [(documentOption, localTag), ("--ca-cert", caCert)] }

    /// A command that plays no tracking document or interstitial stream refuses one.
    func refuseTrackingDocument(_ command: String) throws {
        if trackingDoc != nil { throw ValidationError("--tracking-doc: \(command) does not take a tracking document yet (vplay run plays one)") }
        if interstitials != nil { throw ValidationError("--interstitials: \(command) does not take an interstitial stream yet (vplay run and inspect play one)") }
    }

    /// The folders `--map` reads tags and media from.
    /// (`--base` is not one: only the files its tag names are read from it, and the media among them is checked
    /// against every output once it is chosen, `RunCommand.mediaClash`; a studio whose tag folder holds its data
    /// folder must still write its runs.)
    var inputFolders: [(option: String, path: String)] { map.map { ("--map", $0.directory.path) } }

    /// The Adcash state, which a run rewrites.
    var outputs: [(option: String, path: String?)] { [("--adcash-state", adcashState)] }

    /// Applies these options to a session configuration.
    func apply(to configuration: inout SessionConfiguration) {
        configuration.tag = vast
        configuration.mappings = map
        configuration.tagBase = base
        configuration.resolver.maxWrapperDepth = maxWrappers
        configuration.resolver.firstRequestTimeout = tagTimeouts.first
        configuration.resolver.wrapperTimeout = tagTimeouts.each
        switch bandwidth {
        case let .kbps(kbps): configuration.mediaCriteria.targetBitrateKbps = kbps
        case .auto:
            // The simulated network's rate when the download starts (`NetworkOptions` is applied first).
            configuration.mediaCriteria.targetBitrateKbps = configuration.network?.profile.targetKbps
        case nil: configuration.mediaCriteria.targetBitrateKbps = nil
        }
        if let screen {
            configuration.mediaCriteria.screenWidth = screen.width
            configuration.mediaCriteria.screenHeight = screen.height
        }
        configuration.mediaCriteria.forcedFile = mediaFile
        configuration.mediaCriteria.preferStreaming = preferStreaming ? true : nil
        configuration.resolver.variableDuration = variableDuration
        configuration.adcashStatePath = adcashState
        configuration.addressPolicy = AddressPolicy(denyPrivate: denyPrivateNetworks, denyLoopback: denyLoopback)
        configuration.proxy = (try? proxySettings()) ?? .direct  // refused in validate() when invalid
        configuration.bid = bid.map { BidSource(location: $0, price: price ?? .bid, billing: billingOn ?? .impression) }
    }
}

extension VariableDurationPolicy: ExpressibleByArgument {}

extension BidSource.Billing: ExpressibleByArgument {}
