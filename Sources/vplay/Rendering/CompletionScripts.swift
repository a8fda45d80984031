import ArgumentParser

/// The shell completion scripts `vplay --generate-completion-script SHELL` prints: ArgumentParser's, plus a few lines
/// that make the default subcommand complete. ArgumentParser completes only subcommand names after `vplay`, so the
/// form users type most, `vplay --vast ad.xml --dry-run`, completed nothing; the added lines complete a command line
/// whose first word is an option (other than -h, --help, --version) as if `run` stood before it.
enum CompletionScripts {
    static func script(for shell: CompletionShell) -> String {
        let generated = VPlay.completionScript(for: shell)
        switch shell {
        case .bash: return generated + "\n" + bash
        case .zsh:
            // Before the block at the end that calls (or registers) `_vplay`, so that it is the wrapper.
            guard let ending = generated.range(of: "\nif [[ \"${funcstack[1]}\" = _vplay ]]; then", options: .backwards) else { return generated }
            return String(generated[..<ending.lowerBound]) + "\n" + zsh + String(generated[ending.lowerBound...])
        case .fish: return generated + "\n" + fish
        default: return generated
        }
    }

    /// The script for `arguments` (`--generate-completion-script SHELL` or `=SHELL`, alone), nil for anything else.
    static func requested(by arguments: [String]) -> String? {
        let name: String
        if arguments.count == 2, arguments[0] == "--generate-completion-script" {
            name = arguments[1]
        } else if arguments.count == 1, arguments[0].hasPrefix("--generate-completion-script=") {
            name = String(arguments[0].dropFirst("--generate-completion-script=".count))
        } else {
            return nil
        }
        guard let shell = CompletionShell(rawValue: name), [.bash, .zsh, .fish].contains(shell) else { return nil }
        return script(for: shell)
    }

    static let bash = #"""
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

        """#

    static let zsh = #"""
        # vplay: the default subcommand is run, so `vplay --vast ...` completes as `vplay run --vast ...`.
        functions[__vplay_without_default]="${functions[_vplay]}"
        _vplay() {
            if [[ "${words[2]}" == -* && "${words[2]}" != (-h|--help|--version) ]]; then
                words=("${words[1]}" run "${(@)words[2,-1]}")
                (( CURRENT++ ))
            fi
            __vplay_without_default "${@}"
        }

        """#

    static let fish = #"""
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

        """#
}
