function __vplay_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __vplay_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __vplay_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __vplay_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __vplay_parse_tokens -S
    set -l unparsed_tokens (__vplay_tokens -pc)
    switch $unparsed_tokens[1]
    case 'vplay'
        __vplay_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'run'
            __vplay_parse_subcommand 0 'vast=' 'vmap=' 'tracking-doc=' 'interstitials=' 'bid=' 'price=' 'billing-on=' 'map=+' 'base=' 'max-wrappers=' 'tag-timeouts=' 'bandwidth=' 'screen=' 'prefer-streaming' 'variable-duration=' 'media-file=' 'adcash-state=' 'deny-private-networks' 'deny-loopback' 'proxy=' 'ca-cert=' 'content-duration=' 'break-prefetch=' 'content-script=' 'reporting=' 'poll-interval=' 'ssai=' 'segment=' 'prefetch=' 'device-ip=' 'forwarded-for' 'device-header=+' 'network=' 'network-trace=' 'startup-buffer=' 'rebuffer=' 'media-timeout=' 'stall-timeout=' 'pod=' 'break-position=' 'break-max-duration=' 'break-max-ads=' 'break-min-ad-length=' 'break-max-ad-length=' 'viewability=' 'verification-allow=' 'verification-probe' 'report=' 'junit=' 'timeline=' 'expect=' 'record-expectations=' 'json' 'dry-run' 'clock=' 'speed=' 'script=' 'script-file=' 'reward=' 'reward-at=' 'video-close=' 'close-delay=' 'no-end-card-after-skip' 'reward-callback=' 'reward-user-id=' 'reward-custom-data=' 'ad-unit=' 'reward-keys=' 'repeat-tracking=' 'replay-tracking=' 'seed=' 'now=' 'macro=+' 'threads=' 'display-deadline=' 'beacon-timeout=' 'beacon-drain=' 'fail-on-beacon-errors' 'retries=' 'beacon-concurrency=' 'sink' 'sink-all' 'sink-fault=+' 'collector=' 'q/quiet' 'beacons=' 'har=' 'omid-log=' 'bundle=' 'replay=' 'version' 'h/help'
        case 'inspect'
            __vplay_parse_subcommand 0 'vast=' 'vmap=' 'tracking-doc=' 'interstitials=' 'bid=' 'price=' 'billing-on=' 'map=+' 'base=' 'max-wrappers=' 'tag-timeouts=' 'bandwidth=' 'screen=' 'prefer-streaming' 'variable-duration=' 'media-file=' 'adcash-state=' 'deny-private-networks' 'deny-loopback' 'proxy=' 'ca-cert=' 'network=' 'network-trace=' 'startup-buffer=' 'rebuffer=' 'media-timeout=' 'stall-timeout=' 'pod=' 'break-position=' 'break-max-duration=' 'break-max-ads=' 'break-min-ad-length=' 'break-max-ad-length=' 'content-duration=' 'break-prefetch=' 'content-script=' 'reporting=' 'json' 'q/quiet' 'no-media' 'strict' 'version' 'h/help'
        case 'lint'
            __vplay_parse_subcommand -r 1 'rule=+' 'config=' 'format=' 'output=' 'no-media' 'bid' 'no-creative' 'loudness=' 'max-true-peak=' 'map=+' 'base=' 'deny-private-networks' 'deny-loopback' 'probe-beacons' 'origin=' 'jobs=' 'q/quiet' 'version' 'h/help'
        case 'rules'
            __vplay_parse_subcommand 0 'json' 'version' 'h/help'
        case 'probe'
            __vplay_parse_subcommand 1 'decode' 'demux' 'threads=' 'json' 'q/quiet' 'version' 'h/help'
        case 'fleet'
            __vplay_parse_subcommand 0 'vast=' 'vmap=' 'tracking-doc=' 'interstitials=' 'bid=' 'price=' 'billing-on=' 'map=+' 'base=' 'max-wrappers=' 'tag-timeouts=' 'bandwidth=' 'screen=' 'prefer-streaming' 'variable-duration=' 'media-file=' 'adcash-state=' 'deny-private-networks' 'deny-loopback' 'proxy=' 'ca-cert=' 'pod=' 'break-position=' 'break-max-duration=' 'break-max-ads=' 'break-min-ad-length=' 'break-max-ad-length=' 'content-duration=' 'break-prefetch=' 'content-script=' 'ssai=' 'segment=' 'prefetch=' 'device-ip=' 'forwarded-for' 'device-header=+' 'watch-mix=' 'viewability=' 'verification-allow=' 'verification-probe' 'reward-callback=' 'reward-user-id=' 'reward-custom-data=' 'ad-unit=' 'reward-keys=' 'sessions=' 'concurrency=' 'mix=' 'network-mix=' 'seed=' 'now=' 'macro=+' 'rate=' 'shard=' 'decode-each' 'sink' 'sink-all' 'sink-fault=+' 'collector=' 'metrics=' 'metrics-linger=' 'q/quiet' 'dry-run' 'beacon-timeout=' 'beacon-drain=' 'fail-on-beacon-errors' 'retries=' 'beacon-concurrency=' 'pipeline=' 'progress=' 'sink-log=' 'report=' 'html=' 'results=' 'json' 'junit=' 'threshold=+' 'abort-on-fail' 'version' 'h/help'
        case 'merge'
            __vplay_parse_subcommand -r 1 'results=' 'report=' 'html=' 'json' 'allow-partial' 'q/quiet' 'version' 'h/help'
        case 'sink'
            __vplay_parse_subcommand 0 'port=' 'host=' 'log=' 'media=' 'fault=+' 'json' 'reward-seed=' 'version' 'h/help'
        case 'reward-check'
            __vplay_parse_subcommand 1 'seed=' 'reward=' 'reward-user-id=' 'reward-custom-data=' 'ad-unit=' 'accept=' 'timeout=' 'reward-keys=' 'junit=' 'now=' 'json' 'version' 'h/help'
        case 'audit'
            __vplay_parse_subcommand 0 'vast=' 'vmap=' 'tracking-doc=' 'interstitials=' 'bid=' 'price=' 'billing-on=' 'map=+' 'base=' 'max-wrappers=' 'tag-timeouts=' 'bandwidth=' 'screen=' 'prefer-streaming' 'variable-duration=' 'media-file=' 'adcash-state=' 'deny-private-networks' 'deny-loopback' 'proxy=' 'ca-cert=' 'har=' 'log=' 'beacons=' 'tolerance=' 'reporting=' 'json' 'q/quiet' 'report=' 'junit=' 'timeline=' 'version' 'h/help'
        case 'studio'
            __vplay_parse_subcommand 0 'host=' 'port=' 'data=' 'no-history' 'tag-folder=' 'deny-private-networks' 'deny-loopback' 'version' 'h/help'
        case 'help'
            __vplay_parse_subcommand -r 1 'version'
        end
    end
end

function __vplay_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __vplay_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __vplay_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __vplay_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__vplay_tokens -p)
    if test -z "$(__vplay_tokens -t)"
        set -l index (count (__vplay_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'vplay' -f
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay" version' -l 'version' -d 'Show the version.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_positional "vplay" -eq 1' -fa 'run' -d 'Play a VAST ad: resolve wrappers, decode the chosen media on a clock, fire every tracking URL.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_positional "vplay" -eq 1' -fa 'inspect' -d 'Resolve a tag and show its wrapper chain, chosen media, every tracking URL, warnings and errors.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_positional "vplay" -eq 1' -fa 'lint' -d 'Check tags against vplay\'s rules (vplay rules lists them): resolve, choose and open the media, report each finding.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_positional "vplay" -eq 1' -fa 'rules' -d 'List every rule vplay checks: its stable ID, default severity, spec reference and summary.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_positional "vplay" -eq 1' -fa 'probe' -d 'Print a media file\'s streams; with --decode, decode every frame and report counts and speed.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_positional "vplay" -eq 1' -fa 'fleet' -d 'Play N viewers of one ad from a seeded scenario mix; count every beacon expected, sent and received.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_positional "vplay" -eq 1' -fa 'merge' -d 'Add up fleet shard reports (vplay fleet --shard K/N --report ...), or their --results databases, into the whole fleet\'s report.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_positional "vplay" -eq 1' -fa 'sink' -d 'Run vplay\'s beacon sink: answer every tracking request (200 and a 1x1 GIF, or a fault) and record it.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_positional "vplay" -eq 1' -fa 'reward-check' -d 'Test a reward-callback endpoint with a valid signed callback and forgeries it must refuse.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_positional "vplay" -eq 1' -fa 'audit' -d 'Judge a capture of a device\'s requests (HAR, sink log, beacon log) against the tag\'s tracking plan.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_positional "vplay" -eq 1' -fa 'studio' -d 'Open vplay in a local web page: paste a tag, play it and watch, audit a capture, run a fleet.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_positional "vplay" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" vast' -l 'vast' -d 'The VAST tag: a file path or an http(s) URL (run plays a VMAP document given here as VMAP).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" vmap' -l 'vmap' -d 'A VMAP document (file or http(s) URL); its ad breaks play as pods on a simulated content clock (docs/guides/vmap.md).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" tracking-doc' -l 'tracking-doc' -d 'run, inspect, audit: a stitcher\'s client-side tracking document (MediaTailor\'s JSON, or a DASH manifest with SVTA2053 signalling; file or http(s) URL): run fires its beacons on a simulated stream clock, inspect lists them, audit judges a capture against them (docs/guides/ssai.md).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" interstitials' -l 'interstitials' -d 'run, inspect, audit: an HLS content media playlist with interstitials (EXT-X-DATERANGE CLASS="com.apple.hls.interstitial"; file or http(s) URL): each interstitial plays as a break on the content\'s clock, its assets as ads, its SVTA2053 signalling as their tracking (docs/guides/ssai.md).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" bid' -l 'bid' -d 'An OpenRTB 2.x bid response that won (file or http(s) URL; or {"request": ..., "response": ...}): its highest bid\'s adm plays (or what its nurl answers when it has no adm), with ${AUCTION_PRICE} and the other auction macros filled; nurl fires as the win notice, burl as --billing-on says, lurl never (docs/guides/qa.md).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" price' -l 'price' -d 'With --bid: the clearing price ${AUCTION_PRICE} carries, a decimal in the bid\'s currency and units, or AUDIT (default: the bid\'s own price, a first-price auction).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" billing-on' -l 'billing-on' -d 'With --bid: when burl fires: render (the ad is ready to show, shown or not), impression (its first frame; default) or viewable (the MRC rule; measured even when the tag asks for no viewability).' -rfka 'render impression viewable'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run"' -l 'map' -d 'Read URLs under PREFIX (tags and media) from the local DIR, for offline replay; repeatable.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" base' -l 'base' -d 'Relative URLs in the tag file resolve against this folder instead of the file\'s own (a tag saved away from its media; the studio\'s pasted tags).' -rfa '(__vplay_complete_directories)'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" max-wrappers' -l 'max-wrappers' -d 'Most wrappers followed before error 302 (VAST 4.x: players need accept only 5). (default: 5)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" tag-timeouts' -l 'tag-timeouts' -d 'Seconds for the first tag request, then for each wrapper (IMA iOS: 8 and 4). (default: 8,4)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" bandwidth' -l 'bandwidth' -d 'Target bandwidth in kbps for choosing the media file (highest bitrate not above it); auto: the --network profile\'s rate.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" screen' -l 'screen' -d 'Screen size for choosing the media file (closest area not above it).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" prefer-streaming' -l 'prefer-streaming' -d 'With both progressive files and streaming manifests (HLS, DASH) in the tag, choose among the manifests (default: the progressive files; HLS and DASH are the fallback).'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" variable-duration' -l 'variable-duration' -d 'An ad whose InteractiveCreativeFile has variableDuration="true": refuse it with 409 (SIMID 1.2 section 5: a pod plays its next ad) or fire 409 and play its MediaFile.' -rfka 'refuse play-media'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" media-file' -l 'media-file' -d 'Force a media file by its id attribute or 1-based position.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" adcash-state' -l 'adcash-state' -d 'Choose low/mid/high quality by the Adcash rule from the last download saved in FILE (none yet: low); time this download and save it.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" deny-private-networks' -l 'deny-private-networks' -d 'Refuse tags, wrappers, media and beacons whose host is or resolves to a private, link-local (169.254.0.0/16: cloud metadata) or unique-local address; loopback stays allowed.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" deny-loopback' -l 'deny-loopback' -d 'Refuse loopback hosts (127.0.0.0/8, ::1, localhost) and the unspecified address (0.0.0.0, ::), which reaches this machine, too.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" proxy' -l 'proxy' -d 'Send tags, media and beacons through this HTTP proxy (Charles, mitmproxy): http://host:port. Without it, HTTP_PROXY, HTTPS_PROXY, ALL_PROXY and NO_PROXY (CIDR ranges too) are read as curl reads them; NO_PROXY applies to both.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" ca-cert' -l 'ca-cert' -d 'Also trust the certificate authorities in this PEM file for https tags, media and beacons (besides the system\'s): the CA of a proxy that intercepts TLS (Charles, mitmproxy: ~/.mitmproxy/mitmproxy-ca-cert.pem) or of a test server.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" content-duration' -l 'content-duration' -d 'VMAP (and run --tracking-doc): how long the simulated content (or stream) lasts, in seconds (default: the VMAP document\'s latest clock offset plus 30 s, else 300 s; a tracking document\'s last avail plus 30 s).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" break-prefetch' -l 'break-prefetch' -d 'VMAP: ask for a break\'s ads this many seconds before its time (default 8: Google IMA\'s preload lead for mid- and post-rolls).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" content-script' -l 'content-script' -d 'VMAP (and run --tracking-doc): what happens to the content, at content seconds: seek@30=120, background@60=10 (for 10 s), contentComplete@95 or contentComplete@never (the post-roll is requested and never plays).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" reporting' -l 'reporting' -d '--tracking-doc: client fires every beacon; hybrid leaves impression, start, quartiles, complete, breakStart and breakEnd to the server (MediaTailor\'s hybrid mode).' -rfka 'client hybrid'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" poll-interval' -l 'poll-interval' -d '--tracking-doc: ask for the document again every N seconds of stream (a live stream\'s player polls; MediaTailor\'s nextToken is sent back); default: once.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" ssai' -l 'ssai' -d 'server: vplay is the stitcher; the ad\'s timed beacons fire when the player requests the segment holding each point, with the device\'s X-Device-IP and X-Device-User-Agent and [SERVERSIDE]=1 (default: the player fires them). fleet also takes compare: the fleet played client-side, then server-side, and compared event by event.' -rfka 'server compare'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" segment' -l 'segment' -d '--ssai server: the stream\'s segment duration, in seconds. (default: 2)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" prefetch' -l 'prefetch' -d '--ssai server: segments the player requests ahead of its playhead (each counted by the stitcher when requested). (default: 0)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" device-ip' -l 'device-ip' -d '--ssai server: the device\'s address, sent as X-Device-IP and [DEVICEIP] (an RFC 5737 documentation address by default).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" forwarded-for' -l 'forwarded-for' -d '--ssai server: send the device\'s address as X-Forwarded-For too (deprecated by VAST 4.x, still required by some vendors).'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run"' -l 'device-header' -d '--ssai server: an optional device field, sent as X-Device-NAME: VALUE on every beacon (VAST 4.3: Referer, Accept-Language and Requested-With should be sent); repeatable.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" network' -l 'network' -d 'Simulate the media download: wifi, 4g, fast3g (1.6 Mbps, 150 ms), slow3g, offline, or kbps=N,rtt=MS.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" network-trace' -l 'network-trace' -d 'Simulate the media download by a rate trace: a JSON file [{"at": 0, "kbps": 2000}, {"at": 5, "kbps": 0}, ...] (seconds since the media request).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" startup-buffer' -l 'startup-buffer' -d 'Media buffered before the first frame shows (Media3\'s default). (default: 1)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" rebuffer' -l 'rebuffer' -d 'Media buffered before playback restarts after a stall (Media3\'s default). (default: 2)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" media-timeout' -l 'media-timeout' -d 'The media must be ready to play this long after its request, else error 402 and the next file (IMA\'s loadVideoTimeout). (default: 8)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" stall-timeout' -l 'stall-timeout' -d 'Fail the ad with 402 when one stall lasts longer than this (default: no limit; IMA documents none).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" pod' -l 'pod' -d 'Play every ad of an ad pod, in sequence order (all, default) or only the first that can play (first).' -rfka 'all first'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" break-position' -l 'break-position' -d '[BREAKPOSITION]: pre, mid or post (1, 2, 3); default stand-alone (4), a rewarded ad\'s.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" break-max-duration' -l 'break-max-duration' -d '[BREAKMAXDURATION]: ads that would end the pod after this many seconds of media are not played (error 206).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" break-max-ads' -l 'break-max-ads' -d '[BREAKMAXADS]: ads of the pod after this many are not played (error 206).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" break-min-ad-length' -l 'break-min-ad-length' -d '[BREAKMINADLENGTH]: an ad whose media is shorter is not played (206); a stand-alone ad may replace it.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" break-max-ad-length' -l 'break-max-ad-length' -d '[BREAKMAXADLENGTH]: an ad whose media is longer is not played (206); a stand-alone ad may replace it.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" viewability' -l 'viewability' -d 'Viewability: auto (measured when the ad has <ViewableImpression> URLs, default), measured (Viewable or NotViewable by the MRC rule: 50 % in view for 2 continuous seconds of played video), undetermined (ViewUndetermined when the ad ends) or off.' -rfka 'auto measured undetermined off'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" verification-allow' -l 'verification-allow' -d 'The verification vendors the player allows: a <Verification> of any other vendor is rejected (verificationNotExecuted with [REASON] 1).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" verification-probe' -l 'verification-probe' -d 'Fetch (never run) each verification\'s JavaScriptResource: one that cannot be loaded (malformed URL, 404, timeout) gets [REASON] 3.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" report' -l 'report' -d 'Write the whole session as one JSON document: chain, media, events, beacons, summary.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" junit' -l 'junit' -d 'Write JUnit XML: one test case per expectation (or per default check).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" timeline' -l 'timeline' -d 'Draw the session as SVG: playhead against session time, pauses shaded, events, beacon latencies.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" expect' -l 'expect' -d 'Check the run against expectations (JSON or YAML); exit 1 with a diff when one fails.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" record-expectations' -l 'record-expectations' -d 'Write what this run did as an expectations file (a golden file for --expect).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" json' -l 'json' -d 'One JSON object per line on stdout instead of text.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" dry-run' -l 'dry-run' -d 'Expand and log every tracking URL; send nothing.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" clock' -l 'clock' -d 'virtual (as fast as decoding allows, exact times; default) or realtime.' -rfka 'virtual realtime'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" speed' -l 'speed' -d 'Real time scaled by N (implies --clock realtime); 2 plays a 10 s ad in 5 s; 0.001 to 1000.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" script' -l 'script' -d 'Scripted actions at session seconds since the first frame, e.g. mute@1,background@3,foreground@13,skip@+2; background@load+0.5 times a lifecycle step from the ad request (docs/guides/qa.md "Scripts").' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" script-file' -l 'script-file' -d 'The same as a JSON file: [{"at": 1, "action": "mute"}, ...].' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" reward' -l 'reward' -d 'The reward when the tag has no RewardedVideo extension, or to override it.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" reward-at' -l 'reward-at' -d 'When the reward is granted: complete (default), a percentage (50%) or seconds played (15s). (default: complete)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" video-close' -l 'video-close' -d 'When the video may be closed early: anytime (default), never, or after N seconds played (5s). (default: anytime)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" close-delay' -l 'close-delay' -d 'Seconds before the end card\'s close control appears (its countdown waits while the app is not active). (default: 0)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" no-end-card-after-skip' -l 'no-end-card-after-skip' -d 'Close after a skip instead of showing the end card.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" reward-callback' -l 'reward-callback' -d 'When the reward is granted, send a signed reward callback (AdMob server-side verification) to URL: GET with ad_network, ad_unit, custom_data, reward_amount, reward_item, timestamp, transaction_id, user_id, then signature and key_id.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" reward-user-id' -l 'reward-user-id' -d 'The callback\'s user_id (omitted when not given).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" reward-custom-data' -l 'reward-custom-data' -d 'The callback\'s custom_data (omitted when not given).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" ad-unit' -l 'ad-unit' -d 'The callback\'s ad_unit.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" reward-keys' -l 'reward-keys' -d 'Write the public keys JSON a backend verifies the callbacks with ({"keys":[{"keyId":...,"pem":...,"base64":...}]}; the key comes from --seed), before anything plays.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" repeat-tracking' -l 'repeat-tracking' -d 'pause/resume/mute/unmute beacons on every occurrence or only the first.' -rfka 'every first'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" replay-tracking' -l 'replay-tracking' -d 'Whether a replay fires impression, start, quartiles... again.' -rfka 'none all'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" seed' -l 'seed' -d 'Seed for [CACHEBUSTING] and every other random draw (a fleet\'s scenarios too), for reproducible runs (0 or more). (default: 1)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" now' -l 'now' -d 'Wall time of the first frame for [TIMESTAMP]: ISO 8601 (2026-01-01T00:00:00Z) or ms since 1970.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run"' -l 'macro' -d 'A device or app macro value, e.g. APPBUNDLE=com.game.app; repeatable.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" threads' -l 'threads' -d 'Decoder threads per stream; 0 = one per core. (default: 0)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" display-deadline' -l 'display-deadline' -d 'Fail the ad with VAST error 304 when its first frame does not show within this many seconds of the ad request (default: no limit).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" beacon-timeout' -l 'beacon-timeout' -d 'Seconds each beacon request may take, body included. (default: 5)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" beacon-drain' -l 'beacon-drain' -d 'Seconds the end of the run waits for beacons still in flight; the ones left are reported unanswered. (default: 10)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" fail-on-beacon-errors' -l 'fail-on-beacon-errors' -d 'Exit 5 when any beacon was not delivered.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" retries' -l 'retries' -d 'Retry a beacon this many times (0 to 10) when it surely did not arrive (refused, DNS, connect timeout, TLS) or got a 5xx; never after a timeout, a reset once sent, or a redirect error. (default: 0)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" beacon-concurrency' -l 'beacon-concurrency' -d 'Beacon requests in flight at once. (default: 32)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" sink' -l 'sink' -d 'Start vplay\'s beacon sink on a free loopback port and send loopback tracking URLs (127.0.0.1, localhost) to it; reconcile fired against received at the end.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" sink-all' -l 'sink-all' -d 'Like --sink, for every tracking URL (replay a real tag offline).'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run"' -l 'sink-fault' -d 'A fault the sink plays, e.g. 500@/midpoint, delay=2s@/start, reset@*, hang@*, stall@* (headers, then the body stops), body=64k@*, 500x1@/complete; repeatable.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" collector' -l 'collector' -d 'Send every tracking URL to this running collector instead (a `vplay sink`, the collector of a cluster), path and query kept, e.g. http://vplay-sink:8089. Not reconciled: vplay does not see its hits.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" q quiet' -s 'q' -l 'quiet' -d 'Print nothing but errors (on stderr) and what was asked for (--json on stdout, output files); the exit code tells the rest.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" beacons' -l 'beacons' -d 'Write every beacon attempt to FILE as JSON Lines, as it happens.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" har' -l 'har' -d 'Write the beacon attempts as a HAR 1.2 archive (Charles, browser dev tools).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" omid-log' -l 'omid-log' -d 'Write the Open Measurement session events a correct OM SDK integration would send (emulated: no verification script runs), as JSON Lines.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" bundle' -l 'bundle' -d 'Write a run bundle: the tag documents as fetched, this command line (outputs left out), the seed and --now; `vplay --replay FILE` plays the same session again without the ad server.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" replay' -l 'replay' -d 'Replay a run bundle (--bundle, or a studio run\'s bundle.json): its command line and its tag documents, with the outputs given here.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" version' -l 'version' -d 'Show the version.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay run" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" vast' -l 'vast' -d 'The VAST tag: a file path or an http(s) URL (run plays a VMAP document given here as VMAP).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" vmap' -l 'vmap' -d 'A VMAP document (file or http(s) URL); its ad breaks play as pods on a simulated content clock (docs/guides/vmap.md).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" tracking-doc' -l 'tracking-doc' -d 'run, inspect, audit: a stitcher\'s client-side tracking document (MediaTailor\'s JSON, or a DASH manifest with SVTA2053 signalling; file or http(s) URL): run fires its beacons on a simulated stream clock, inspect lists them, audit judges a capture against them (docs/guides/ssai.md).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" interstitials' -l 'interstitials' -d 'run, inspect, audit: an HLS content media playlist with interstitials (EXT-X-DATERANGE CLASS="com.apple.hls.interstitial"; file or http(s) URL): each interstitial plays as a break on the content\'s clock, its assets as ads, its SVTA2053 signalling as their tracking (docs/guides/ssai.md).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" bid' -l 'bid' -d 'An OpenRTB 2.x bid response that won (file or http(s) URL; or {"request": ..., "response": ...}): its highest bid\'s adm plays (or what its nurl answers when it has no adm), with ${AUCTION_PRICE} and the other auction macros filled; nurl fires as the win notice, burl as --billing-on says, lurl never (docs/guides/qa.md).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" price' -l 'price' -d 'With --bid: the clearing price ${AUCTION_PRICE} carries, a decimal in the bid\'s currency and units, or AUDIT (default: the bid\'s own price, a first-price auction).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" billing-on' -l 'billing-on' -d 'With --bid: when burl fires: render (the ad is ready to show, shown or not), impression (its first frame; default) or viewable (the MRC rule; measured even when the tag asks for no viewability).' -rfka 'render impression viewable'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect"' -l 'map' -d 'Read URLs under PREFIX (tags and media) from the local DIR, for offline replay; repeatable.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" base' -l 'base' -d 'Relative URLs in the tag file resolve against this folder instead of the file\'s own (a tag saved away from its media; the studio\'s pasted tags).' -rfa '(__vplay_complete_directories)'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" max-wrappers' -l 'max-wrappers' -d 'Most wrappers followed before error 302 (VAST 4.x: players need accept only 5). (default: 5)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" tag-timeouts' -l 'tag-timeouts' -d 'Seconds for the first tag request, then for each wrapper (IMA iOS: 8 and 4). (default: 8,4)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" bandwidth' -l 'bandwidth' -d 'Target bandwidth in kbps for choosing the media file (highest bitrate not above it); auto: the --network profile\'s rate.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" screen' -l 'screen' -d 'Screen size for choosing the media file (closest area not above it).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" prefer-streaming' -l 'prefer-streaming' -d 'With both progressive files and streaming manifests (HLS, DASH) in the tag, choose among the manifests (default: the progressive files; HLS and DASH are the fallback).'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" variable-duration' -l 'variable-duration' -d 'An ad whose InteractiveCreativeFile has variableDuration="true": refuse it with 409 (SIMID 1.2 section 5: a pod plays its next ad) or fire 409 and play its MediaFile.' -rfka 'refuse play-media'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" media-file' -l 'media-file' -d 'Force a media file by its id attribute or 1-based position.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" adcash-state' -l 'adcash-state' -d 'Choose low/mid/high quality by the Adcash rule from the last download saved in FILE (none yet: low); time this download and save it.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" deny-private-networks' -l 'deny-private-networks' -d 'Refuse tags, wrappers, media and beacons whose host is or resolves to a private, link-local (169.254.0.0/16: cloud metadata) or unique-local address; loopback stays allowed.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" deny-loopback' -l 'deny-loopback' -d 'Refuse loopback hosts (127.0.0.0/8, ::1, localhost) and the unspecified address (0.0.0.0, ::), which reaches this machine, too.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" proxy' -l 'proxy' -d 'Send tags, media and beacons through this HTTP proxy (Charles, mitmproxy): http://host:port. Without it, HTTP_PROXY, HTTPS_PROXY, ALL_PROXY and NO_PROXY (CIDR ranges too) are read as curl reads them; NO_PROXY applies to both.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" ca-cert' -l 'ca-cert' -d 'Also trust the certificate authorities in this PEM file for https tags, media and beacons (besides the system\'s): the CA of a proxy that intercepts TLS (Charles, mitmproxy: ~/.mitmproxy/mitmproxy-ca-cert.pem) or of a test server.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" network' -l 'network' -d 'Simulate the media download: wifi, 4g, fast3g (1.6 Mbps, 150 ms), slow3g, offline, or kbps=N,rtt=MS.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" network-trace' -l 'network-trace' -d 'Simulate the media download by a rate trace: a JSON file [{"at": 0, "kbps": 2000}, {"at": 5, "kbps": 0}, ...] (seconds since the media request).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" startup-buffer' -l 'startup-buffer' -d 'Media buffered before the first frame shows (Media3\'s default). (default: 1)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" rebuffer' -l 'rebuffer' -d 'Media buffered before playback restarts after a stall (Media3\'s default). (default: 2)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" media-timeout' -l 'media-timeout' -d 'The media must be ready to play this long after its request, else error 402 and the next file (IMA\'s loadVideoTimeout). (default: 8)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" stall-timeout' -l 'stall-timeout' -d 'Fail the ad with 402 when one stall lasts longer than this (default: no limit; IMA documents none).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" pod' -l 'pod' -d 'Play every ad of an ad pod, in sequence order (all, default) or only the first that can play (first).' -rfka 'all first'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" break-position' -l 'break-position' -d '[BREAKPOSITION]: pre, mid or post (1, 2, 3); default stand-alone (4), a rewarded ad\'s.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" break-max-duration' -l 'break-max-duration' -d '[BREAKMAXDURATION]: ads that would end the pod after this many seconds of media are not played (error 206).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" break-max-ads' -l 'break-max-ads' -d '[BREAKMAXADS]: ads of the pod after this many are not played (error 206).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" break-min-ad-length' -l 'break-min-ad-length' -d '[BREAKMINADLENGTH]: an ad whose media is shorter is not played (206); a stand-alone ad may replace it.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" break-max-ad-length' -l 'break-max-ad-length' -d '[BREAKMAXADLENGTH]: an ad whose media is longer is not played (206); a stand-alone ad may replace it.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" content-duration' -l 'content-duration' -d 'VMAP (and run --tracking-doc): how long the simulated content (or stream) lasts, in seconds (default: the VMAP document\'s latest clock offset plus 30 s, else 300 s; a tracking document\'s last avail plus 30 s).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" break-prefetch' -l 'break-prefetch' -d 'VMAP: ask for a break\'s ads this many seconds before its time (default 8: Google IMA\'s preload lead for mid- and post-rolls).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" content-script' -l 'content-script' -d 'VMAP (and run --tracking-doc): what happens to the content, at content seconds: seek@30=120, background@60=10 (for 10 s), contentComplete@95 or contentComplete@never (the post-roll is requested and never plays).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" reporting' -l 'reporting' -d '--tracking-doc: client (the player fires every timed event) or hybrid (the server fires impression, start, quartiles, complete, breakStart and breakEnd).' -rfka 'client hybrid'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" json' -l 'json' -d 'Print one JSON object instead of text.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" q quiet' -s 'q' -l 'quiet' -d 'Print nothing but errors (on stderr) and what was asked for (--json on stdout, output files); the exit code tells the rest.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" no-media' -l 'no-media' -d 'Do not open the chosen media file (skips the duration check).'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" strict' -l 'strict' -d 'Lint: exit 1 when the tag draws any warning (vplay lint with every warning an error, under .vplay-lint.toml when there is one).'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" version' -l 'version' -d 'Show the version.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay inspect" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_positional "vplay lint" -ge 1' -F
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay lint"' -l 'rule' -d 'Set a rule\'s severity: ID=error|warning|info|off (ID may end in * for every rule it begins); repeatable, after the config file.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay lint" config' -l 'config' -d 'The config file ([rules] table of ID = "LEVEL"; default: .vplay-lint.toml in the working directory, when there is one).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay lint" format' -l 'format' -d 'Output: text, ndjson (one finding a line), junit (one case per rule), sarif (SARIF 2.1.0).' -rfka 'text ndjson junit sarif'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay lint" output' -l 'output' -d 'Write the output to FILE instead of stdout.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay lint" no-media' -l 'no-media' -d 'Do not open the media (no duration, container or creative checks).'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay lint" bid' -l 'bid' -d 'The tags are OpenRTB bid responses (a folder\'s .json files): each winning bid\'s markup is linted, with the bid\'s own findings (VPLAY-bid-*); --probe-beacons then requests its nurl and burl too.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay lint" no-creative' -l 'no-creative' -d 'Open the media but do not decode it (no creative QA: loudness, leaders, scan, audio format).'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay lint" loudness' -l 'loudness' -d 'Creative QA\'s loudness target: atsc (-24 LKFS +-2, ATSC A/85), ebu (-23 LUFS +-1, EBU R128) or LUFS+-LU written --loudness=-16+-1.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay lint" max-true-peak' -l 'max-true-peak' -d 'Creative QA\'s true-peak ceiling, dBTP (IAB ad format guidelines). (default: -6.0)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay lint"' -l 'map' -d 'Read URLs under PREFIX (tags and media) from the local DIR; repeatable.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay lint" base' -l 'base' -d 'Relative URLs in tag files resolve against this folder instead of each file\'s own (a tag saved away from its media).' -rfa '(__vplay_complete_directories)'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay lint" deny-private-networks' -l 'deny-private-networks' -d 'Refuse tags, wrappers, media and beacons whose host is or resolves to a private, link-local or unique-local address; loopback stays allowed.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay lint" deny-loopback' -l 'deny-loopback' -d 'Refuse loopback hosts (127.0.0.0/8, ::1, localhost) and the unspecified address (0.0.0.0, ::).'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay lint" probe-beacons' -l 'probe-beacons' -d 'Request each tracking URL once (macros filled; Error URLs left out) and report its answer: not 2xx or 3xx, an https URL redirected to http, slower than 1 s. The trackers count these requests.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay lint" origin' -l 'origin' -d 'The web page origin each tag request carries, as a web player\'s browser sends it; each answer\'s Access-Control-Allow-Origin must allow it (default: https://player.vplay.invalid).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay lint" jobs' -l 'jobs' -d 'Tags linted at once. (default: 4)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay lint" q quiet' -s 'q' -l 'quiet' -d 'Print nothing but errors (on stderr) and what was asked for (--json on stdout, output files); the exit code tells the rest.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay lint" version' -l 'version' -d 'Show the version.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay lint" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay rules" json' -l 'json' -d 'Print a JSON array (schemas/rules.schema.json) instead of text.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay rules" version' -l 'version' -d 'Show the version.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay rules" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_positional "vplay probe" -eq 1' -F
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay probe" decode' -l 'decode' -d 'Decode every audio and video frame (frame counts, first/last timestamps, decode speed).'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay probe" demux' -l 'demux' -d 'Demux only: read every packet without decoding (packet counts, speed).'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay probe" threads' -l 'threads' -d 'Decoder threads per stream; 0 = one per core, as ffmpeg\'s default. (default: 0)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay probe" json' -l 'json' -d 'Print one JSON object instead of text.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay probe" q quiet' -s 'q' -l 'quiet' -d 'Print nothing but errors (on stderr) and what was asked for (--json on stdout, output files); the exit code tells the rest.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay probe" version' -l 'version' -d 'Show the version.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay probe" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" vast' -l 'vast' -d 'The VAST tag: a file path or an http(s) URL (run plays a VMAP document given here as VMAP).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" vmap' -l 'vmap' -d 'A VMAP document (file or http(s) URL); its ad breaks play as pods on a simulated content clock (docs/guides/vmap.md).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" tracking-doc' -l 'tracking-doc' -d 'run, inspect, audit: a stitcher\'s client-side tracking document (MediaTailor\'s JSON, or a DASH manifest with SVTA2053 signalling; file or http(s) URL): run fires its beacons on a simulated stream clock, inspect lists them, audit judges a capture against them (docs/guides/ssai.md).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" interstitials' -l 'interstitials' -d 'run, inspect, audit: an HLS content media playlist with interstitials (EXT-X-DATERANGE CLASS="com.apple.hls.interstitial"; file or http(s) URL): each interstitial plays as a break on the content\'s clock, its assets as ads, its SVTA2053 signalling as their tracking (docs/guides/ssai.md).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" bid' -l 'bid' -d 'An OpenRTB 2.x bid response that won (file or http(s) URL; or {"request": ..., "response": ...}): its highest bid\'s adm plays (or what its nurl answers when it has no adm), with ${AUCTION_PRICE} and the other auction macros filled; nurl fires as the win notice, burl as --billing-on says, lurl never (docs/guides/qa.md).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" price' -l 'price' -d 'With --bid: the clearing price ${AUCTION_PRICE} carries, a decimal in the bid\'s currency and units, or AUDIT (default: the bid\'s own price, a first-price auction).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" billing-on' -l 'billing-on' -d 'With --bid: when burl fires: render (the ad is ready to show, shown or not), impression (its first frame; default) or viewable (the MRC rule; measured even when the tag asks for no viewability).' -rfka 'render impression viewable'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet"' -l 'map' -d 'Read URLs under PREFIX (tags and media) from the local DIR, for offline replay; repeatable.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" base' -l 'base' -d 'Relative URLs in the tag file resolve against this folder instead of the file\'s own (a tag saved away from its media; the studio\'s pasted tags).' -rfa '(__vplay_complete_directories)'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" max-wrappers' -l 'max-wrappers' -d 'Most wrappers followed before error 302 (VAST 4.x: players need accept only 5). (default: 5)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" tag-timeouts' -l 'tag-timeouts' -d 'Seconds for the first tag request, then for each wrapper (IMA iOS: 8 and 4). (default: 8,4)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" bandwidth' -l 'bandwidth' -d 'Target bandwidth in kbps for choosing the media file (highest bitrate not above it); auto: the --network profile\'s rate.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" screen' -l 'screen' -d 'Screen size for choosing the media file (closest area not above it).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" prefer-streaming' -l 'prefer-streaming' -d 'With both progressive files and streaming manifests (HLS, DASH) in the tag, choose among the manifests (default: the progressive files; HLS and DASH are the fallback).'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" variable-duration' -l 'variable-duration' -d 'An ad whose InteractiveCreativeFile has variableDuration="true": refuse it with 409 (SIMID 1.2 section 5: a pod plays its next ad) or fire 409 and play its MediaFile.' -rfka 'refuse play-media'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" media-file' -l 'media-file' -d 'Force a media file by its id attribute or 1-based position.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" adcash-state' -l 'adcash-state' -d 'Choose low/mid/high quality by the Adcash rule from the last download saved in FILE (none yet: low); time this download and save it.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" deny-private-networks' -l 'deny-private-networks' -d 'Refuse tags, wrappers, media and beacons whose host is or resolves to a private, link-local (169.254.0.0/16: cloud metadata) or unique-local address; loopback stays allowed.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" deny-loopback' -l 'deny-loopback' -d 'Refuse loopback hosts (127.0.0.0/8, ::1, localhost) and the unspecified address (0.0.0.0, ::), which reaches this machine, too.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" proxy' -l 'proxy' -d 'Send tags, media and beacons through this HTTP proxy (Charles, mitmproxy): http://host:port. Without it, HTTP_PROXY, HTTPS_PROXY, ALL_PROXY and NO_PROXY (CIDR ranges too) are read as curl reads them; NO_PROXY applies to both.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" ca-cert' -l 'ca-cert' -d 'Also trust the certificate authorities in this PEM file for https tags, media and beacons (besides the system\'s): the CA of a proxy that intercepts TLS (Charles, mitmproxy: ~/.mitmproxy/mitmproxy-ca-cert.pem) or of a test server.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" pod' -l 'pod' -d 'Play every ad of an ad pod, in sequence order (all, default) or only the first that can play (first).' -rfka 'all first'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" break-position' -l 'break-position' -d '[BREAKPOSITION]: pre, mid or post (1, 2, 3); default stand-alone (4), a rewarded ad\'s.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" break-max-duration' -l 'break-max-duration' -d '[BREAKMAXDURATION]: ads that would end the pod after this many seconds of media are not played (error 206).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" break-max-ads' -l 'break-max-ads' -d '[BREAKMAXADS]: ads of the pod after this many are not played (error 206).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" break-min-ad-length' -l 'break-min-ad-length' -d '[BREAKMINADLENGTH]: an ad whose media is shorter is not played (206); a stand-alone ad may replace it.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" break-max-ad-length' -l 'break-max-ad-length' -d '[BREAKMAXADLENGTH]: an ad whose media is longer is not played (206); a stand-alone ad may replace it.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" content-duration' -l 'content-duration' -d 'VMAP (and run --tracking-doc): how long the simulated content (or stream) lasts, in seconds (default: the VMAP document\'s latest clock offset plus 30 s, else 300 s; a tracking document\'s last avail plus 30 s).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" break-prefetch' -l 'break-prefetch' -d 'VMAP: ask for a break\'s ads this many seconds before its time (default 8: Google IMA\'s preload lead for mid- and post-rolls).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" content-script' -l 'content-script' -d 'VMAP (and run --tracking-doc): what happens to the content, at content seconds: seek@30=120, background@60=10 (for 10 s), contentComplete@95 or contentComplete@never (the post-roll is requested and never plays).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" ssai' -l 'ssai' -d 'server: vplay is the stitcher; the ad\'s timed beacons fire when the player requests the segment holding each point, with the device\'s X-Device-IP and X-Device-User-Agent and [SERVERSIDE]=1 (default: the player fires them). fleet also takes compare: the fleet played client-side, then server-side, and compared event by event.' -rfka 'server compare'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" segment' -l 'segment' -d '--ssai server: the stream\'s segment duration, in seconds. (default: 2)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" prefetch' -l 'prefetch' -d '--ssai server: segments the player requests ahead of its playhead (each counted by the stitcher when requested). (default: 0)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" device-ip' -l 'device-ip' -d '--ssai server: the device\'s address, sent as X-Device-IP and [DEVICEIP] (an RFC 5737 documentation address by default).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" forwarded-for' -l 'forwarded-for' -d '--ssai server: send the device\'s address as X-Forwarded-For too (deprecated by VAST 4.x, still required by some vendors).'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet"' -l 'device-header' -d '--ssai server: an optional device field, sent as X-Device-NAME: VALUE on every beacon (VAST 4.3: Referer, Accept-Language and Requested-With should be sent); repeatable.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" watch-mix' -l 'watch-mix' -d 'VMAP: how far the viewers watch the content, as weights: end (to contentComplete, post-roll included), N% of it, or N seconds (default end:1, everyone to the end).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" viewability' -l 'viewability' -d 'Viewability: auto (measured when the ad has <ViewableImpression> URLs, default), measured (Viewable or NotViewable by the MRC rule: 50 % in view for 2 continuous seconds of played video), undetermined (ViewUndetermined when the ad ends) or off.' -rfka 'auto measured undetermined off'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" verification-allow' -l 'verification-allow' -d 'The verification vendors the player allows: a <Verification> of any other vendor is rejected (verificationNotExecuted with [REASON] 1).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" verification-probe' -l 'verification-probe' -d 'Fetch (never run) each verification\'s JavaScriptResource: one that cannot be loaded (malformed URL, 404, timeout) gets [REASON] 3.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" reward-callback' -l 'reward-callback' -d 'When the reward is granted, send a signed reward callback (AdMob server-side verification) to URL: GET with ad_network, ad_unit, custom_data, reward_amount, reward_item, timestamp, transaction_id, user_id, then signature and key_id.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" reward-user-id' -l 'reward-user-id' -d 'The callback\'s user_id (omitted when not given).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" reward-custom-data' -l 'reward-custom-data' -d 'The callback\'s custom_data (omitted when not given).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" ad-unit' -l 'ad-unit' -d 'The callback\'s ad_unit.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" reward-keys' -l 'reward-keys' -d 'Write the public keys JSON a backend verifies the callbacks with ({"keys":[{"keyId":...,"pem":...,"base64":...}]}; the key comes from --seed), before anything plays.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" sessions' -l 'sessions' -d 'How many viewers (sessions) in the whole fleet. (default: 1000)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" concurrency' -l 'concurrency' -d 'Sessions played at once. (default: 16)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" mix' -l 'mix' -d 'What the viewers do, as weights: complete, background, pause, click, skip, close, terminate. (default: complete:70,background:15,skip:10,close:5)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" network-mix' -l 'network-mix' -d 'Put the viewers on simulated networks, as weights: wifi, 4g, fast3g, slow3g, offline (e.g. wifi:60,4g:30,fast3g:10).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" seed' -l 'seed' -d 'Seed for [CACHEBUSTING] and every other random draw (a fleet\'s scenarios too), for reproducible runs (0 or more). (default: 1)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" now' -l 'now' -d 'Wall time of the first frame for [TIMESTAMP]: ISO 8601 (2026-01-01T00:00:00Z) or ms since 1970.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet"' -l 'macro' -d 'A device or app macro value, e.g. APPBUNDLE=com.game.app; repeatable.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" rate' -l 'rate' -d 'At most this many beacons per second over the whole fleet (0.001 to 10,000,000): with --shard K/N each shard sends 1/N of it.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" shard' -l 'shard' -d 'Run only shard K of N (sessions i with i % N == K), 0-based.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" decode-each' -l 'decode-each' -d 'Decode the media in every session instead of replaying the one verified decode.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" sink' -l 'sink' -d 'Start vplay\'s beacon sink on a free loopback port and send loopback tracking URLs (127.0.0.1, localhost) to it; reconcile fired against received at the end.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" sink-all' -l 'sink-all' -d 'Like --sink, for every tracking URL (replay a real tag offline).'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet"' -l 'sink-fault' -d 'A fault the sink plays, e.g. 500@/midpoint, delay=2s@/start, reset@*, hang@*, stall@* (headers, then the body stops), body=64k@*, 500x1@/complete; repeatable.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" collector' -l 'collector' -d 'Send every tracking URL to this running collector instead (a `vplay sink`, the collector of a cluster), path and query kept, e.g. http://vplay-sink:8089. Not reconciled: vplay does not see its hits.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" metrics' -l 'metrics' -d 'Serve the fleet\'s live figures as Prometheus metrics at http://ADDR/metrics while it runs: [HOST:]PORT, HOST 127.0.0.1 unless given (0.0.0.0:9464 in a pod to be scraped); names and labels in docs/guides/fleets.md.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" metrics-linger' -l 'metrics-linger' -d 'After the fleet ends, keep serving --metrics until its final figures have been scraped once, at most this many seconds (so the last scrape of a shard sees them). (default: 0)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" q quiet' -s 'q' -l 'quiet' -d 'Print nothing but errors (on stderr) and what was asked for (--json on stdout, output files); the exit code tells the rest.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" dry-run' -l 'dry-run' -d 'Plan and count every beacon; send nothing.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" beacon-timeout' -l 'beacon-timeout' -d 'Seconds each beacon request may take, body included. (default: 5)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" beacon-drain' -l 'beacon-drain' -d 'Seconds the end of the run waits for beacons still in flight; the ones left are reported unanswered. (default: 10)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" fail-on-beacon-errors' -l 'fail-on-beacon-errors' -d 'Exit 5 when any beacon was not delivered.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" retries' -l 'retries' -d 'Retry a beacon this many times (0 to 10) when it surely did not arrive (refused, DNS, connect timeout, TLS) or got a 5xx; never after a timeout, a reset once sent, or a redirect error. (default: 0)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" beacon-concurrency' -l 'beacon-concurrency' -d 'Beacon requests in flight at once over the fleet. (default: 64)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" pipeline' -l 'pipeline' -d 'HTTP/1.1 pipelining: up to N plain-HTTP beacon requests on one keep-alive connection before their answers, as load tools can (1 to 64); 1 sends one at a time, as devices do. (default: 1)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" progress' -l 'progress' -d 'Write the fleet\'s progress to FILE as it runs, one JSON line about five times a second: sessions done, beacons sent and answered, seconds, and impressions, starts, quartiles and completes so far (the studio draws its live view from it).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" sink-log' -l 'sink-log' -d 'With --sink or --sink-all: stream every hit at the sink to FILE as it arrives, one JSON line each (appended; the fleet\'s sink keeps no hit in memory, it reconciles each as it arrives).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" report' -l 'report' -d 'Write the fleet report (JSON) to FILE; `vplay merge` adds shard reports up.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" html' -l 'html' -d 'Write the fleet report as one self-contained HTML page to FILE (reach by quartile, beacons by status, latency over the run, thresholds; readable offline).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" results' -l 'results' -d 'Write every session, playback event, beacon attempt and hit at the sink to an SQLite database at FILE as the fleet runs (docs/reference/results.md); `vplay merge` merges shards\' files and regenerates the report from them.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" json' -l 'json' -d 'Print the report as JSON on stdout instead of the text summary.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" junit' -l 'junit' -d 'Write JUnit XML: a test case per tracking URL (sent as expected; received as sent) and per fleet check.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet"' -l 'threshold' -d 'Fail the run (exit 99) unless this holds on the report: [SCOPE:]METRIC OP VALUE, e.g. \'received/sent>=0.999\', \'event=firstQuartile:received/expected>=0.99\', \'url=/midpoint:delivered/sent==1\', \'network=3g:complete/sessions>=0.8\', \'ad=2:sent/expected==1\', \'latency.p99<250ms\'; repeatable, each a JUnit case (docs/guides/fleets.md).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" abort-on-fail' -l 'abort-on-fail' -d 'Stop the run at the first --threshold breached for good (a count or latency.max over its bound; ratios and percentiles are judged at the end), within a second; exit 99.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" version' -l 'version' -d 'Show the version.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay fleet" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_positional "vplay merge" -ge 1' -F
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay merge" results' -l 'results' -d 'With --results databases given: write their rows merged into one database at FILE.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay merge" report' -l 'report' -d 'Write the merged report to FILE.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay merge" html' -l 'html' -d 'Write the merged report as one self-contained HTML page to FILE.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay merge" json' -l 'json' -d 'Print the merged report as JSON on stdout instead of the text summary.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay merge" allow-partial' -l 'allow-partial' -d 'Accept a merge of fewer than all shards (exit by the counts; without it a missing shard exits 1).'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay merge" q quiet' -s 'q' -l 'quiet' -d 'Print nothing but errors (on stderr) and what was asked for (--json on stdout, output files); the exit code tells the rest.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay merge" version' -l 'version' -d 'Show the version.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay merge" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay sink" port' -l 'port' -d 'Port on 127.0.0.1 (0 = any free port). (default: 8089)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay sink" host' -l 'host' -d 'Address to listen on. The sink is a test tool: keep it on loopback.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay sink" log' -l 'log' -d 'Append every hit to FILE as JSON Lines (not inside the --media folder).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay sink" media' -l 'media' -d 'Serve the regular files under DIR at /media/<relative path> (GET, HEAD, byte ranges); nothing outside DIR.' -rfa '(__vplay_complete_directories)'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay sink"' -l 'fault' -d 'A fault to play for matching paths: 500@/midpoint, delay=2s@/start, reset@*, hang@*, stall@*, body=64k@*, 500x1@/complete, rate=200k@/media/*, ttfb=2s@/media/*, stall=3s@after:40%@/media/*; repeatable.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay sink" json' -l 'json' -d 'Print each hit as JSON instead of text.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay sink" reward-seed' -l 'reward-seed' -d 'Serve the reward verifier keys of this --seed (the key vplay signs reward callbacks with) at /__vplay/ssv/verifier-keys.json.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay sink" version' -l 'version' -d 'Show the version.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay sink" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay reward-check" seed' -l 'seed' -d 'Seeds the signing key (and key_id) and the transaction ids.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay reward-check" reward' -l 'reward' -d 'What the callbacks grant. (default: Coins:10)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay reward-check" reward-user-id' -l 'reward-user-id' -d 'user_id of the callbacks. (default: vplay-check-user)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay reward-check" reward-custom-data' -l 'reward-custom-data' -d 'custom_data of the callbacks. (default: vplay-check)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay reward-check" ad-unit' -l 'ad-unit' -d 'ad_unit of the callbacks.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay reward-check" accept' -l 'accept' -d 'The HTTP statuses that mean the endpoint credited the reward. (default: 200-299)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay reward-check" timeout' -l 'timeout' -d 'Seconds to wait for each answer. (default: 5)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay reward-check" reward-keys' -l 'reward-keys' -d 'Write the public keys JSON for --seed before sending anything.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay reward-check" junit' -l 'junit' -d 'Write JUnit XML: one test case per case.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay reward-check" now' -l 'now' -d 'The callbacks\' timestamp: ISO 8601 or ms since 1970 (default: now).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay reward-check" json' -l 'json' -d 'One JSON object per case on stdout instead of text.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay reward-check" version' -l 'version' -d 'Show the version.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay reward-check" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" vast' -l 'vast' -d 'The VAST tag: a file path or an http(s) URL (run plays a VMAP document given here as VMAP).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" vmap' -l 'vmap' -d 'A VMAP document (file or http(s) URL); its ad breaks play as pods on a simulated content clock (docs/guides/vmap.md).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" tracking-doc' -l 'tracking-doc' -d 'run, inspect, audit: a stitcher\'s client-side tracking document (MediaTailor\'s JSON, or a DASH manifest with SVTA2053 signalling; file or http(s) URL): run fires its beacons on a simulated stream clock, inspect lists them, audit judges a capture against them (docs/guides/ssai.md).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" interstitials' -l 'interstitials' -d 'run, inspect, audit: an HLS content media playlist with interstitials (EXT-X-DATERANGE CLASS="com.apple.hls.interstitial"; file or http(s) URL): each interstitial plays as a break on the content\'s clock, its assets as ads, its SVTA2053 signalling as their tracking (docs/guides/ssai.md).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" bid' -l 'bid' -d 'An OpenRTB 2.x bid response that won (file or http(s) URL; or {"request": ..., "response": ...}): its highest bid\'s adm plays (or what its nurl answers when it has no adm), with ${AUCTION_PRICE} and the other auction macros filled; nurl fires as the win notice, burl as --billing-on says, lurl never (docs/guides/qa.md).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" price' -l 'price' -d 'With --bid: the clearing price ${AUCTION_PRICE} carries, a decimal in the bid\'s currency and units, or AUDIT (default: the bid\'s own price, a first-price auction).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" billing-on' -l 'billing-on' -d 'With --bid: when burl fires: render (the ad is ready to show, shown or not), impression (its first frame; default) or viewable (the MRC rule; measured even when the tag asks for no viewability).' -rfka 'render impression viewable'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit"' -l 'map' -d 'Read URLs under PREFIX (tags and media) from the local DIR, for offline replay; repeatable.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" base' -l 'base' -d 'Relative URLs in the tag file resolve against this folder instead of the file\'s own (a tag saved away from its media; the studio\'s pasted tags).' -rfa '(__vplay_complete_directories)'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" max-wrappers' -l 'max-wrappers' -d 'Most wrappers followed before error 302 (VAST 4.x: players need accept only 5). (default: 5)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" tag-timeouts' -l 'tag-timeouts' -d 'Seconds for the first tag request, then for each wrapper (IMA iOS: 8 and 4). (default: 8,4)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" bandwidth' -l 'bandwidth' -d 'Target bandwidth in kbps for choosing the media file (highest bitrate not above it); auto: the --network profile\'s rate.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" screen' -l 'screen' -d 'Screen size for choosing the media file (closest area not above it).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" prefer-streaming' -l 'prefer-streaming' -d 'With both progressive files and streaming manifests (HLS, DASH) in the tag, choose among the manifests (default: the progressive files; HLS and DASH are the fallback).'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" variable-duration' -l 'variable-duration' -d 'An ad whose InteractiveCreativeFile has variableDuration="true": refuse it with 409 (SIMID 1.2 section 5: a pod plays its next ad) or fire 409 and play its MediaFile.' -rfka 'refuse play-media'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" media-file' -l 'media-file' -d 'Force a media file by its id attribute or 1-based position.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" adcash-state' -l 'adcash-state' -d 'Choose low/mid/high quality by the Adcash rule from the last download saved in FILE (none yet: low); time this download and save it.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" deny-private-networks' -l 'deny-private-networks' -d 'Refuse tags, wrappers, media and beacons whose host is or resolves to a private, link-local (169.254.0.0/16: cloud metadata) or unique-local address; loopback stays allowed.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" deny-loopback' -l 'deny-loopback' -d 'Refuse loopback hosts (127.0.0.0/8, ::1, localhost) and the unspecified address (0.0.0.0, ::), which reaches this machine, too.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" proxy' -l 'proxy' -d 'Send tags, media and beacons through this HTTP proxy (Charles, mitmproxy): http://host:port. Without it, HTTP_PROXY, HTTPS_PROXY, ALL_PROXY and NO_PROXY (CIDR ranges too) are read as curl reads them; NO_PROXY applies to both.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" ca-cert' -l 'ca-cert' -d 'Also trust the certificate authorities in this PEM file for https tags, media and beacons (besides the system\'s): the CA of a proxy that intercepts TLS (Charles, mitmproxy: ~/.mitmproxy/mitmproxy-ca-cert.pem) or of a test server.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" har' -l 'har' -d 'The capture as a HAR 1.2 file (Charles, browser dev tools, vplay --har).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" log' -l 'log' -d 'The capture as a vplay sink log (vplay sink --log).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" beacons' -l 'beacons' -d 'The capture as a vplay beacon log (--beacons).' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" tolerance' -l 'tolerance' -d 'Seconds of slack for timing and playhead checks. (default: 1)' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" reporting' -l 'reporting' -d '--tracking-doc: client (the player fires every timed beacon) or hybrid (the server fires impression, start, quartiles, complete, breakStart and breakEnd: a player that fires them too is failed).' -rfka 'client hybrid'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" json' -l 'json' -d 'Print the audit as one JSON object instead of text.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" q quiet' -s 'q' -l 'quiet' -d 'Print nothing but errors (on stderr) and what was asked for (--json on stdout, output files); the exit code tells the rest.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" report' -l 'report' -d 'Write the audit as JSON to FILE.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" junit' -l 'junit' -d 'Write JUnit XML: one test case per tracking URL and per check.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" timeline' -l 'timeline' -d 'Draw the captured beacons on the media\'s timeline as SVG.' -rF
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" version' -l 'version' -d 'Show the version.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay audit" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay studio" host' -l 'host' -d 'Address to listen on; anything but loopback exposes the studio to the network.' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay studio" port' -l 'port' -d 'Port to listen on (default: a free one, printed).' -rfka ''
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay studio" data' -l 'data' -d 'Where runs and their history are kept (default: $XDG_DATA_HOME/vplay/studio, else ~/.local/share/vplay/studio).' -rfa '(__vplay_complete_directories)'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay studio" no-history' -l 'no-history' -d 'Keep nothing: runs go to a temporary folder removed at exit, and no history database is opened.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay studio" tag-folder' -l 'tag-folder' -d 'Relative URLs in pasted or dropped tags resolve against this folder.' -rfa '(__vplay_complete_directories)'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay studio" deny-private-networks' -l 'deny-private-networks' -d 'Every run, fleet and audit refuses tags, media and beacons on private, link-local or unique-local addresses.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay studio" deny-loopback' -l 'deny-loopback' -d 'Every run, fleet and audit refuses loopback hosts too.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay studio" version' -l 'version' -d 'Show the version.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay studio" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'vplay' -n '__vplay_should_offer_completions_for_flags_or_options "vplay help" version' -l 'version' -d 'Show the version.'
# vplay: the default subcommand is run, so `vplay --vast ...` completes as `vplay run --vast ...`.
functions --copy __vplay_tokens __vplay_tokens_without_default
function __vplay_tokens
    set -l tokens (__vplay_tokens_without_default $argv)
    set -l first $tokens[2]
    if test (count $tokens) -lt 2
        set first (commandline -ct)
    end
    if string match -qr -- '^-' "$first"; and not contains -- "$first" -h --help --version
        set tokens $tokens[1] run $tokens[2..]
    end
    if test (count $tokens) -gt 0
        printf '%s\n' $tokens
    end
end

