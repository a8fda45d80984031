# Prints the candidates bash's completion offers for a command line, one per line: the completion script
# (docs/completions/vplay.bash) sourced, COMP_* set as readline sets them, its function called.
#   bash Tests/Tools/complete.bash SCRIPT WORKING_DIRECTORY 'vplay --dr'
source "$1"
cd "$2"
COMP_LINE="$3"
COMP_POINT=${#COMP_LINE}
read -ra COMP_WORDS <<< "$COMP_LINE"
[[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMPREPLY=()
_vplay "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
[ ${#COMPREPLY[@]} -eq 0 ] || printf '%s\n' "${COMPREPLY[@]}"
