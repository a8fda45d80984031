# Prints the candidates zsh's completion offers for a command line, one per line, using the completion functions in
# a folder (docs/completions): an interactive zsh in a pseudo-terminal (zsh/zpty), compinit, and `compadd` wrapped to
# print what each call adds. The line is typed with a TAB after it; zle runs the completion before it reads the next
# keys (the line is then killed with ^U, a key zle reads in turn; ^C would interrupt the completion as a signal), so
# the end marker after it comes after every candidate.
#   zsh -f Tests/Tools/complete.zsh FOLDER WORKING_DIRECTORY 'vplay --dr'
zmodload zsh/zpty
local folder=$1 directory=$2 line=$3
zpty shell zsh -f -i
zpty -w shell "PROMPT='' RPROMPT='' LISTMAX=100000; fpath=(${(q)folder} \$fpath); autoload -Uz compinit; compinit -u -D; cd ${(q)directory}"
zpty -w shell 'compadd () { if [[ ${@[(I)-[OAD]]} -eq 0 ]]; then local -a __hits; builtin compadd -A __hits "$@"; print -r -- "<hits>${(j:|:)__hits}</hits>"; fi; builtin compadd "$@" }'
zpty -w shell "print -r -- RE''ADY"
# Reads the shell's output until `marker` appears (the command that prints it is typed quoted, RE''ADY, so its echo
# never matches); gives up (status 1) after 120 s, a readiness bound only.
read_until() {
  local marker=$1 chunk
  all=''
  local -F deadline=$(( EPOCHREALTIME + 120 ))
  while (( EPOCHREALTIME < deadline )); do
    if zpty -r -t shell chunk; then all+=$chunk; [[ $all == *$marker* ]] && return 0; else sleep 0.05; fi
  done
  print -r -- "complete.zsh: no $marker from the shell within 120 s" >&2
  return 1
}
zmodload zsh/datetime
local all=''
read_until READY || exit 1
zpty -w -n shell "$line"$'\t'
zpty -w -n shell $'\C-u'
zpty -w shell "print -r -- DO''NE"
read_until DONE || { zpty -d shell; exit 1; }
zpty -d shell
local -a hits
for match in ${(M)${(s:<hits>:)all}:#*</hits>*}; do
  hits+=(${(s:|:)${match%%</hits>*}})
done
print -rl -- ${(u)hits}
