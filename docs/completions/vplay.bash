#!/bin/bash

__vplay_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__vplay_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__vplay_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__vplay_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_vplay() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=()
    __vplay_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    run|inspect|lint|rules|probe|fleet|merge|sink|reward-check|audit|studio|help)
        # Offer subcommand argument completions
        "_vplay_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'run inspect lint rules probe fleet merge sink reward-check audit studio help' -- "${cur}"))
        ;;
    esac
}

_vplay_run() {
    repeating_flags=()
    non_repeating_flags=(--prefer-streaming --deny-private-networks --deny-loopback --forwarded-for --verification-probe --json --dry-run --no-end-card-after-skip --fail-on-beacon-errors --sink --sink-all -q --quiet --version -h --help)
    repeating_options=(--map --device-header --macro --sink-fault)
    non_repeating_options=(--vast --vmap --tracking-doc --interstitials --bid --price --billing-on --base --max-wrappers --tag-timeouts --bandwidth --screen --variable-duration --media-file --adcash-state --proxy --ca-cert --content-duration --break-prefetch --content-script --reporting --poll-interval --ssai --segment --prefetch --device-ip --network --network-trace --startup-buffer --rebuffer --media-timeout --stall-timeout --pod --break-position --break-max-duration --break-max-ads --break-min-ad-length --break-max-ad-length --viewability --verification-allow --report --junit --timeline --expect --record-expectations --clock --speed --script --script-file --reward --reward-at --video-close --close-delay --reward-callback --reward-user-id --reward-custom-data --ad-unit --reward-keys --repeat-tracking --replay-tracking --seed --now --threads --display-deadline --beacon-timeout --beacon-drain --retries --beacon-concurrency --collector --beacons --har --omid-log --bundle --replay)
    __vplay_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vast')
        __vplay_add_completions -f
        return
        ;;
    '--vmap')
        __vplay_add_completions -f
        return
        ;;
    '--tracking-doc')
        __vplay_add_completions -f
        return
        ;;
    '--interstitials')
        __vplay_add_completions -f
        return
        ;;
    '--bid')
        __vplay_add_completions -f
        return
        ;;
    '--price')
        return
        ;;
    '--billing-on')
        __vplay_add_completions -W 'render'$'\n''impression'$'\n''viewable'
        return
        ;;
    '--map')
        return
        ;;
    '--base')
        __vplay_add_completions -d
        return
        ;;
    '--max-wrappers')
        return
        ;;
    '--tag-timeouts')
        return
        ;;
    '--bandwidth')
        return
        ;;
    '--screen')
        return
        ;;
    '--variable-duration')
        __vplay_add_completions -W 'refuse'$'\n''play-media'
        return
        ;;
    '--media-file')
        return
        ;;
    '--adcash-state')
        __vplay_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--ca-cert')
        __vplay_add_completions -f
        return
        ;;
    '--content-duration')
        return
        ;;
    '--break-prefetch')
        return
        ;;
    '--content-script')
        return
        ;;
    '--reporting')
        __vplay_add_completions -W 'client'$'\n''hybrid'
        return
        ;;
    '--poll-interval')
        return
        ;;
    '--ssai')
        __vplay_add_completions -W 'server'$'\n''compare'
        return
        ;;
    '--segment')
        return
        ;;
    '--prefetch')
        return
        ;;
    '--device-ip')
        return
        ;;
    '--device-header')
        return
        ;;
    '--network')
        return
        ;;
    '--network-trace')
        __vplay_add_completions -f
        return
        ;;
    '--startup-buffer')
        return
        ;;
    '--rebuffer')
        return
        ;;
    '--media-timeout')
        return
        ;;
    '--stall-timeout')
        return
        ;;
    '--pod')
        __vplay_add_completions -W 'all'$'\n''first'
        return
        ;;
    '--break-position')
        return
        ;;
    '--break-max-duration')
        return
        ;;
    '--break-max-ads')
        return
        ;;
    '--break-min-ad-length')
        return
        ;;
    '--break-max-ad-length')
        return
        ;;
    '--viewability')
        __vplay_add_completions -W 'auto'$'\n''measured'$'\n''undetermined'$'\n''off'
        return
        ;;
    '--verification-allow')
        return
        ;;
    '--report')
        __vplay_add_completions -f
        return
        ;;
    '--junit')
        __vplay_add_completions -f
        return
        ;;
    '--timeline')
        __vplay_add_completions -f
        return
        ;;
    '--expect')
        __vplay_add_completions -f
        return
        ;;
    '--record-expectations')
        __vplay_add_completions -f
        return
        ;;
    '--clock')
        __vplay_add_completions -W 'virtual'$'\n''realtime'
        return
        ;;
    '--speed')
        return
        ;;
    '--script')
        return
        ;;
    '--script-file')
        __vplay_add_completions -f
        return
        ;;
    '--reward')
        return
        ;;
    '--reward-at')
        return
        ;;
    '--video-close')
        return
        ;;
    '--close-delay')
        return
        ;;
    '--reward-callback')
        return
        ;;
    '--reward-user-id')
        return
        ;;
    '--reward-custom-data')
        return
        ;;
    '--ad-unit')
        return
        ;;
    '--reward-keys')
        __vplay_add_completions -f
        return
        ;;
    '--repeat-tracking')
        __vplay_add_completions -W 'every'$'\n''first'
        return
        ;;
    '--replay-tracking')
        __vplay_add_completions -W 'none'$'\n''all'
        return
        ;;
    '--seed')
        return
        ;;
    '--now')
        return
        ;;
    '--macro')
        return
        ;;
    '--threads')
        return
        ;;
    '--display-deadline')
        return
        ;;
    '--beacon-timeout')
        return
        ;;
    '--beacon-drain')
        return
        ;;
    '--retries')
        return
        ;;
    '--beacon-concurrency')
        return
        ;;
    '--sink-fault')
        return
        ;;
    '--collector')
        return
        ;;
    '--beacons')
        __vplay_add_completions -f
        return
        ;;
    '--har')
        __vplay_add_completions -f
        return
        ;;
    '--omid-log')
        __vplay_add_completions -f
        return
        ;;
    '--bundle')
        __vplay_add_completions -f
        return
        ;;
    '--replay')
        __vplay_add_completions -f
        return
        ;;
    esac
}

_vplay_inspect() {
    repeating_flags=()
    non_repeating_flags=(--prefer-streaming --deny-private-networks --deny-loopback --json -q --quiet --no-media --strict --version -h --help)
    repeating_options=(--map)
    non_repeating_options=(--vast --vmap --tracking-doc --interstitials --bid --price --billing-on --base --max-wrappers --tag-timeouts --bandwidth --screen --variable-duration --media-file --adcash-state --proxy --ca-cert --network --network-trace --startup-buffer --rebuffer --media-timeout --stall-timeout --pod --break-position --break-max-duration --break-max-ads --break-min-ad-length --break-max-ad-length --content-duration --break-prefetch --content-script --reporting)
    __vplay_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vast')
        __vplay_add_completions -f
        return
        ;;
    '--vmap')
        __vplay_add_completions -f
        return
        ;;
    '--tracking-doc')
        __vplay_add_completions -f
        return
        ;;
    '--interstitials')
        __vplay_add_completions -f
        return
        ;;
    '--bid')
        __vplay_add_completions -f
        return
        ;;
    '--price')
        return
        ;;
    '--billing-on')
        __vplay_add_completions -W 'render'$'\n''impression'$'\n''viewable'
        return
        ;;
    '--map')
        return
        ;;
    '--base')
        __vplay_add_completions -d
        return
        ;;
    '--max-wrappers')
        return
        ;;
    '--tag-timeouts')
        return
        ;;
    '--bandwidth')
        return
        ;;
    '--screen')
        return
        ;;
    '--variable-duration')
        __vplay_add_completions -W 'refuse'$'\n''play-media'
        return
        ;;
    '--media-file')
        return
        ;;
    '--adcash-state')
        __vplay_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--ca-cert')
        __vplay_add_completions -f
        return
        ;;
    '--network')
        return
        ;;
    '--network-trace')
        __vplay_add_completions -f
        return
        ;;
    '--startup-buffer')
        return
        ;;
    '--rebuffer')
        return
        ;;
    '--media-timeout')
        return
        ;;
    '--stall-timeout')
        return
        ;;
    '--pod')
        __vplay_add_completions -W 'all'$'\n''first'
        return
        ;;
    '--break-position')
        return
        ;;
    '--break-max-duration')
        return
        ;;
    '--break-max-ads')
        return
        ;;
    '--break-min-ad-length')
        return
        ;;
    '--break-max-ad-length')
        return
        ;;
    '--content-duration')
        return
        ;;
    '--break-prefetch')
        return
        ;;
    '--content-script')
        return
        ;;
    '--reporting')
        __vplay_add_completions -W 'client'$'\n''hybrid'
        return
        ;;
    esac
}

_vplay_lint() {
    repeating_flags=()
    non_repeating_flags=(--no-media --bid --no-creative --deny-private-networks --deny-loopback --probe-beacons -q --quiet --version -h --help)
    repeating_options=(--rule --map)
    non_repeating_options=(--config --format --output --loudness --max-true-peak --base --origin --jobs)
    __vplay_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--rule')
        return
        ;;
    '--config')
        __vplay_add_completions -f
        return
        ;;
    '--format')
        __vplay_add_completions -W 'text'$'\n''ndjson'$'\n''junit'$'\n''sarif'
        return
        ;;
    '--output')
        __vplay_add_completions -f
        return
        ;;
    '--loudness')
        return
        ;;
    '--max-true-peak')
        return
        ;;
    '--map')
        return
        ;;
    '--base')
        __vplay_add_completions -d
        return
        ;;
    '--origin')
        return
        ;;
    '--jobs')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __vplay_add_completions -f
        return
        ;;
    esac
}

_vplay_rules() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=()
    __vplay_offer_flags_options 0
}

_vplay_probe() {
    repeating_flags=()
    non_repeating_flags=(--decode --demux --json -q --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--threads)
    __vplay_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--threads')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __vplay_add_completions -f
        return
        ;;
    esac
}

_vplay_fleet() {
    repeating_flags=()
    non_repeating_flags=(--prefer-streaming --deny-private-networks --deny-loopback --forwarded-for --verification-probe --decode-each --sink --sink-all -q --quiet --dry-run --fail-on-beacon-errors --json --abort-on-fail --version -h --help)
    repeating_options=(--map --device-header --macro --sink-fault --threshold)
    non_repeating_options=(--vast --vmap --tracking-doc --interstitials --bid --price --billing-on --base --max-wrappers --tag-timeouts --bandwidth --screen --variable-duration --media-file --adcash-state --proxy --ca-cert --pod --break-position --break-max-duration --break-max-ads --break-min-ad-length --break-max-ad-length --content-duration --break-prefetch --content-script --ssai --segment --prefetch --device-ip --watch-mix --viewability --verification-allow --reward-callback --reward-user-id --reward-custom-data --ad-unit --reward-keys --sessions --concurrency --mix --network-mix --seed --now --rate --shard --collector --metrics --metrics-linger --beacon-timeout --beacon-drain --retries --beacon-concurrency --pipeline --progress --sink-log --report --html --results --junit)
    __vplay_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vast')
        __vplay_add_completions -f
        return
        ;;
    '--vmap')
        __vplay_add_completions -f
        return
        ;;
    '--tracking-doc')
        __vplay_add_completions -f
        return
        ;;
    '--interstitials')
        __vplay_add_completions -f
        return
        ;;
    '--bid')
        __vplay_add_completions -f
        return
        ;;
    '--price')
        return
        ;;
    '--billing-on')
        __vplay_add_completions -W 'render'$'\n''impression'$'\n''viewable'
        return
        ;;
    '--map')
        return
        ;;
    '--base')
        __vplay_add_completions -d
        return
        ;;
    '--max-wrappers')
        return
        ;;
    '--tag-timeouts')
        return
        ;;
    '--bandwidth')
        return
        ;;
    '--screen')
        return
        ;;
    '--variable-duration')
        __vplay_add_completions -W 'refuse'$'\n''play-media'
        return
        ;;
    '--media-file')
        return
        ;;
    '--adcash-state')
        __vplay_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--ca-cert')
        __vplay_add_completions -f
        return
        ;;
    '--pod')
        __vplay_add_completions -W 'all'$'\n''first'
        return
        ;;
    '--break-position')
        return
        ;;
    '--break-max-duration')
        return
        ;;
    '--break-max-ads')
        return
        ;;
    '--break-min-ad-length')
        return
        ;;
    '--break-max-ad-length')
        return
        ;;
    '--content-duration')
        return
        ;;
    '--break-prefetch')
        return
        ;;
    '--content-script')
        return
        ;;
    '--ssai')
        __vplay_add_completions -W 'server'$'\n''compare'
        return
        ;;
    '--segment')
        return
        ;;
    '--prefetch')
        return
        ;;
    '--device-ip')
        return
        ;;
    '--device-header')
        return
        ;;
    '--watch-mix')
        return
        ;;
    '--viewability')
        __vplay_add_completions -W 'auto'$'\n''measured'$'\n''undetermined'$'\n''off'
        return
        ;;
    '--verification-allow')
        return
        ;;
    '--reward-callback')
        return
        ;;
    '--reward-user-id')
        return
        ;;
    '--reward-custom-data')
        return
        ;;
    '--ad-unit')
        return
        ;;
    '--reward-keys')
        __vplay_add_completions -f
        return
        ;;
    '--sessions')
        return
        ;;
    '--concurrency')
        return
        ;;
    '--mix')
        return
        ;;
    '--network-mix')
        return
        ;;
    '--seed')
        return
        ;;
    '--now')
        return
        ;;
    '--macro')
        return
        ;;
    '--rate')
        return
        ;;
    '--shard')
        return
        ;;
    '--sink-fault')
        return
        ;;
    '--collector')
        return
        ;;
    '--metrics')
        return
        ;;
    '--metrics-linger')
        return
        ;;
    '--beacon-timeout')
        return
        ;;
    '--beacon-drain')
        return
        ;;
    '--retries')
        return
        ;;
    '--beacon-concurrency')
        return
        ;;
    '--pipeline')
        return
        ;;
    '--progress')
        __vplay_add_completions -f
        return
        ;;
    '--sink-log')
        __vplay_add_completions -f
        return
        ;;
    '--report')
        __vplay_add_completions -f
        return
        ;;
    '--html')
        __vplay_add_completions -f
        return
        ;;
    '--results')
        __vplay_add_completions -f
        return
        ;;
    '--junit')
        __vplay_add_completions -f
        return
        ;;
    '--threshold')
        return
        ;;
    esac
}

_vplay_merge() {
    repeating_flags=()
    non_repeating_flags=(--json --allow-partial -q --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--results --report --html)
    __vplay_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--results')
        __vplay_add_completions -f
        return
        ;;
    '--report')
        __vplay_add_completions -f
        return
        ;;
    '--html')
        __vplay_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __vplay_add_completions -f
        return
        ;;
    esac
}

_vplay_sink() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=(--fault)
    non_repeating_options=(--port --host --log --media --reward-seed)
    __vplay_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--port')
        return
        ;;
    '--host')
        return
        ;;
    '--log')
        __vplay_add_completions -f
        return
        ;;
    '--media')
        __vplay_add_completions -d
        return
        ;;
    '--fault')
        return
        ;;
    '--reward-seed')
        return
        ;;
    esac
}

_vplay_reward-check() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--seed --reward --reward-user-id --reward-custom-data --ad-unit --accept --timeout --reward-keys --junit --now)
    __vplay_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--seed')
        return
        ;;
    '--reward')
        return
        ;;
    '--reward-user-id')
        return
        ;;
    '--reward-custom-data')
        return
        ;;
    '--ad-unit')
        return
        ;;
    '--accept')
        return
        ;;
    '--timeout')
        return
        ;;
    '--reward-keys')
        __vplay_add_completions -f
        return
        ;;
    '--junit')
        __vplay_add_completions -f
        return
        ;;
    '--now')
        return
        ;;
    esac
}

_vplay_audit() {
    repeating_flags=()
    non_repeating_flags=(--prefer-streaming --deny-private-networks --deny-loopback --json -q --quiet --version -h --help)
    repeating_options=(--map)
    non_repeating_options=(--vast --vmap --tracking-doc --interstitials --bid --price --billing-on --base --max-wrappers --tag-timeouts --bandwidth --screen --variable-duration --media-file --adcash-state --proxy --ca-cert --har --log --beacons --tolerance --reporting --report --junit --timeline)
    __vplay_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--vast')
        __vplay_add_completions -f
        return
        ;;
    '--vmap')
        __vplay_add_completions -f
        return
        ;;
    '--tracking-doc')
        __vplay_add_completions -f
        return
        ;;
    '--interstitials')
        __vplay_add_completions -f
        return
        ;;
    '--bid')
        __vplay_add_completions -f
        return
        ;;
    '--price')
        return
        ;;
    '--billing-on')
        __vplay_add_completions -W 'render'$'\n''impression'$'\n''viewable'
        return
        ;;
    '--map')
        return
        ;;
    '--base')
        __vplay_add_completions -d
        return
        ;;
    '--max-wrappers')
        return
        ;;
    '--tag-timeouts')
        return
        ;;
    '--bandwidth')
        return
        ;;
    '--screen')
        return
        ;;
    '--variable-duration')
        __vplay_add_completions -W 'refuse'$'\n''play-media'
        return
        ;;
    '--media-file')
        return
        ;;
    '--adcash-state')
        __vplay_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--ca-cert')
        __vplay_add_completions -f
        return
        ;;
    '--har')
        __vplay_add_completions -f
        return
        ;;
    '--log')
        __vplay_add_completions -f
        return
        ;;
    '--beacons')
        __vplay_add_completions -f
        return
        ;;
    '--tolerance')
        return
        ;;
    '--reporting')
        __vplay_add_completions -W 'client'$'\n''hybrid'
        return
        ;;
    '--report')
        __vplay_add_completions -f
        return
        ;;
    '--junit')
        __vplay_add_completions -f
        return
        ;;
    '--timeline')
        __vplay_add_completions -f
        return
        ;;
    esac
}

_vplay_studio() {
    repeating_flags=()
    non_repeating_flags=(--no-history --deny-private-networks --deny-loopback --version -h --help)
    repeating_options=()
    non_repeating_options=(--host --port --data --tag-folder)
    __vplay_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--host')
        return
        ;;
    '--port')
        return
        ;;
    '--data')
        __vplay_add_completions -d
        return
        ;;
    '--tag-folder')
        __vplay_add_completions -d
        return
        ;;
    esac
}

_vplay_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __vplay_offer_flags_options -1
}

complete -o filenames -F _vplay vplay
# vplay: the default subcommand is run, so `vplay --vast ...` completes as `vplay run --vast ...`.
eval "$(declare -f _vplay | sed '1s/^_vplay /__vplay_without_default /')"
_vplay() {
    case "${COMP_WORDS[1]}" in
    -h|--help|--version) __vplay_without_default "${@}" ;;
    -*)
        local -a COMP_WORDS=("${COMP_WORDS[0]}" run "${COMP_WORDS[@]:1}")
        local COMP_CWORD=$((COMP_CWORD + 1))
        local COMP_LINE="${COMP_WORDS[0]} run${COMP_LINE#"${COMP_WORDS[0]}"}"
        local COMP_POINT=$((COMP_POINT + 4))
        __vplay_without_default "${@}"
        ;;
    *) __vplay_without_default "${@}" ;;
    esac
}

