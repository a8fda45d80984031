import CFFmpeg
import Foundation
import Networking
import Primitives

extension FormatContext {
    /// The options of every reader vplay opens (the media, and each playlist, segment or key FFmpeg opens inside
    /// it): the protocols it may use and the I/O timeout; for a remote URL the User-Agent, a certificate check (FFmpeg's
    /// TLS layer checks nothing unless told to; players check against the system's store, and so does vplay, with
    /// `--ca-cert`'s bundle when given: GnuTLS reads that file instead of the store, so it holds both), the proxy
    /// vplay chose for it or none (an empty value also keeps FFmpeg from reading `http_proxy` from the environment by
    /// its own rules: it ignores HTTPS_PROXY and NO_PROXY's upper-case spelling), and no redirect followed by FFmpeg
    /// when vplay follows them with every target checked (`MediaRedirects`; FFmpeg would go to any host, port or
    /// private address).
    static func readerOptions(_ options: inout OpaquePointer?, remote: Bool, protocols: String, ioTimeout: Duration,
                              viaProxy: ProxySettings.Endpoint?, proxy: ProxySettings, vplayFollowsRedirects: Bool) {
        av_dict_set(&options, "protocol_whitelist", protocols, 0)
        av_dict_set(&options, "rw_timeout", String(max(1, Int64(ioTimeout.seconds * 1_000_000))), 0)
        guard remote else { return }
        av_dict_set(&options, "user_agent", userAgent, 0)
        av_dict_set(&options, "tls_verify", "1", 0)
        if let bundle = proxy.combinedCAFile { av_dict_set(&options, "ca_file", bundle, 0) }
        av_dict_set(&options, "http_proxy", viaProxy?.description ?? "", 0)
        if vplayFollowsRedirects { av_dict_set(&options, "max_redirects", "0", 0) }
    }

    /// Opens the reader of `target`: where FFmpeg answers a redirect it may not follow with only "I/O error", vplay
    /// follows the redirect itself, every hop checked, and opens where it ends. The status, and where the data comes
    /// from.
    static func connect(_ reader: inout UnsafeMutablePointer<AVIOContext>?, to target: String, options: inout OpaquePointer?,
                        interrupt: inout AVIOInterruptCB, redirects: MediaRedirectResolver?, deadline: LoadDeadline) throws(MediaError) -> (Int32, String) {
        let connected = avio_open2(&reader, target, AVIO_FLAG_READ, &interrupt, &options)
        if connected == FFmpegCode.posix(EIO), isRemote(target), let redirects, !deadline.expired,
           let final = try redirects(target, deadline.remaining) {
            return (avio_open2(&reader, final, AVIO_FLAG_READ, &interrupt, &options), final)
        }
        return (connected, target)
    }
}
