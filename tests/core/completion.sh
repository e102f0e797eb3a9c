#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab completion bash|zsh|fish: bash's completion driven word by word (the script
# sourced in `bash --norc`, COMP_WORDS/COMP_CWORD set, the function `complete -p perflab`
# names called, COMPREPLY read), the script against every command's and benchmark's
# --help (each long option is offered), bad arguments, and, where zsh and fish are
# installed, their scripts loaded and asked for commands.
. "$PERFLAB_SRCDIR/tests/lib.sh"
P=$PERFLAB
cd "$TMP" || exit 1

ok "completion bash" "$P" completion bash
cp "$OUT" "$TMP/perflab.bash"
like "first line names the shell" "$(head -1 "$TMP/perflab.bash")" '^# bash completion for perflab [0-9]'
ok "the script is bash" bash --norc -n "$TMP/perflab.bash"

# comp WORD...: the completions bash offers for the command line WORD... (the last word
# is the one being completed), one a line, sorted.
cat >"$TMP/drive.sh" <<'EOF'
source "$1" || exit 9
shift
fn=$(complete -p perflab | sed -n 's/.* -F \([^ ]*\) .*/\1/p')
[ -n "$fn" ] || exit 8
COMP_WORDS=("$@")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
"$fn"
printf '%s\n' "${COMPREPLY[@]}"
EOF
comp() { bash --norc "$TMP/drive.sh" "$TMP/perflab.bash" "$P" "$@" | sed '/^$/d' | LC_ALL=C sort -u | paste -sd' ' -; }
words() { tr ' ' '\n' | sed '/^$/d' | LC_ALL=C sort -u | paste -sd' ' -; }

ok "perflab --help" "$P" --help
cmds=$(sed -n '/^commands:/,/^$/p' "$OUT" | awk 'NF > 1 && $1 != "commands:" { print $1 }' | words)
like "--help lists completion" "$cmds" '(^| )completion( |$)'
is "perflab <TAB>: every command of --help" "$(comp '')" "$cmds"
is "perflab be<TAB>: bench" "$(comp be)" "bench"
is "perflab co<TAB>: compare, completion" "$(comp co)" "compare completion"
ok "bench --list" "$P" bench --list
benches=$(awk 'NR > 1 && $2 ~ /^(yes|no)$/ { print $1 }' "$OUT" | words)
like "bench --list parsed" "$benches" 'clock'
is "perflab bench <TAB>: the names of bench --list" "$(comp bench '')" "$benches"
is "perflab bench --runs 3 cl<TAB>: an option's value is skipped" "$(comp bench --runs 3 cl)" "clock"
is "perflab bench clock <TAB>: nothing (one benchmark a run)" "$(comp bench clock '')" ""

ok "tune --help" "$P" tune --help
subs=$(sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p' "$OUT" | words)
like "tune --help's subcommands parsed" "$subs" 'apply'
is "perflab tune <TAB>: the subcommands of tune --help" "$(comp tune '')" "$subs"
ok "tune list --json" "$P" tune list --json
profiles=$(jq -r '.profiles[].name' "$OUT" | words)
like "tune list found profiles" "$profiles" '[a-z]'
is "perflab tune show <TAB>: the profiles of tune list" "$(comp tune show '')" "$profiles"
is "perflab tune apply --dry-run <TAB>: the profiles" "$(comp tune apply --dry-run '')" "$profiles"
mkdir -p "$TMP/pdir/zz-mine" && printf '[main]\nsummary=mine\n' >"$TMP/pdir/zz-mine/tuned.conf"
is "perflab tune --profile-dir DIR show zz<TAB>: a profile of DIR" "$(comp tune --profile-dir "$TMP/pdir" show zz)" "zz-mine"
is "perflab tune status <TAB>: no profile" "$(comp tune status '')" ""

is "perflab check --format <TAB>: its values" "$(comp check --format '')" "json prom text"
is "perflab check --format=j<TAB> (bash splits at =)" "$(comp check --format = j)" "json"
is "perflab check -W <TAB>: the workloads" "$(comp check -W '')" \
	"benchmark general hpc latency network storage throughput"
is "perflab tune recommend --workload l<TAB>: a workload (a string option)" \
	"$(comp tune recommend --workload l)" "latency"
is "perflab profile --call-graph <TAB>" "$(comp profile --call-graph '')" "dwarf fp none"

mkdir -p "$TMP/files/sub.d"
: >"$TMP/files/a.json"
: >"$TMP/files/b.txt"
is "perflab check -o <TAB>: files" "$(comp check -o "$TMP/files/")" \
	"$TMP/files/a.json $TMP/files/b.txt $TMP/files/sub.d"
is "perflab report -o <TAB>: directories only (report's -o DIR)" "$(comp report -o "$TMP/files/")" \
	"$TMP/files/sub.d"
is "perflab --sysroot <TAB> before the command: files and directories" \
	"$(comp --sysroot "$TMP/files/a")" "$TMP/files/a.json"
is "perflab report --from <TAB>: files" "$(comp report --from "$TMP/files/a")" "$TMP/files/a.json"
is "perflab report --fleet <TAB>: files and directories (its snapshots)" \
	"$(comp report --fleet "$TMP/files/")" "$TMP/files/a.json $TMP/files/b.txt $TMP/files/sub.d"
is "perflab report --fleet A <TAB>: more of them" \
	"$(comp report --fleet "$TMP/files/a.json" "$TMP/files/s")" "$TMP/files/sub.d"
is "perflab report -W general --fleet --json <TAB>: still files" \
	"$(comp report -W general --fleet --json "$TMP/files/b")" "$TMP/files/b.txt"
is "perflab report <TAB> without --fleet: nothing (no arguments)" "$(comp report "$TMP/files/")" ""
is "perflab diff <TAB>: files" "$(comp diff "$TMP/files/b")" "$TMP/files/b.txt"
is "perflab inspect --domain cpu,ker<TAB>: a fact domain after the comma" \
	"$(comp inspect --domain cpu,ker)" "cpu,kernel"
fdomains=$(sed -n 's/^PL_FACT(\([a-z0-9_]*\), *"[^"]*")$/\1/p' "$PERFLAB_SRCDIR/src/facts/list.h" | words)
is "perflab inspect --domain <TAB>: src/facts/list.h's domains" "$(comp inspect --domain '')" "$fdomains"
got=$(comp profile -- bas)
like "perflab profile -- bas<TAB>: commands" "$got" '(^| )bash( |$)'
is "perflab profile -- ls <TAB>: the command's files" "$(comp profile -- ls "$TMP/files/b")" "$TMP/files/b.txt"
is "perflab completion <TAB>: the shells" "$(comp completion '')" "bash fish zsh"
is "perflab help tu<TAB>" "$(comp help tu)" "tune"
is "perflab check --fo<TAB>: options" "$(comp check --fo)" "--format"
got=$(comp bench clock --)
like "perflab bench clock --<TAB>: the benchmark's options" "$got" '(^| )--batch( |$)'
like "perflab bench clock --<TAB>: the runner's options" "$got" '(^| )--runs( |$)'
like "perflab bench clock --<TAB>: the global options" "$got" '(^| )--sysroot( |$)'
unlike=$(printf '%s\n' "$got" | grep -c -- '--backend')
is "perflab bench clock --<TAB>: not another benchmark's" "$unlike" "0"

# Every long option of every --help is in the script, under its command or benchmark.
options_of() { # --help output -> its long options
	grep -oE '^  (-[a-zA-Z], )?--[a-z0-9-]+' "$1" | sed 's/.*--/--/' | words
}
missing=
for c in $(printf '%s\n' "$cmds" | tr ' ' '\n' | grep -vx -e help -e completion); do
	"$P" "$c" --help >"$TMP/h" 2>/dev/null
	got=$(comp "$c" --)
	for o in $(options_of "$TMP/h"); do
		case " $got " in *" $o "*) ;; *) missing="$missing $c:$o" ;; esac
	done
done
for b in $benches; do
	"$P" bench "$b" --help >"$TMP/h" 2>/dev/null
	got=$(comp bench "$b" --)
	for o in $(options_of "$TMP/h"); do
		case " $got " in *" $o "*) ;; *) missing="$missing bench $b:$o" ;; esac
	done
done
is "every long option of every command's and benchmark's --help is completed" "$missing" ""

# Bad arguments: one line naming it and the shells, exit 2.
expect_exit 2 "completion tcsh: exit 2" "$P" completion tcsh
is "completion tcsh: one line naming it and the shells" "$(cat "$ERR")" \
	"perflab completion: error: unknown shell 'tcsh' (give bash, zsh or fish)"
expect_exit 2 "completion without a shell: exit 2" "$P" completion
like "completion without a shell: names the shells" "$(cat "$ERR")" "bash, zsh or fish"
expect_exit 2 "completion bash zsh: exit 2" "$P" completion bash zsh
is "completion bash zsh: names the extra argument" "$(wc -l <"$ERR")" "1"
ok "completion --help" "$P" completion --help
like "completion --help shows the usage" "$(head -1 "$OUT")" '^usage: perflab completion bash\|zsh\|fish'
ok "help completion" "$P" help completion

# zsh: the script parses and loads under compinit; its driver, with stand-ins for the
# completion builtins (they exist only inside a completion widget), offers what bash does.
ok "completion zsh" "$P" completion zsh
cp "$OUT" "$TMP/_perflab"
is "zsh: first line #compdef perflab" "$(head -1 "$TMP/_perflab")" "#compdef perflab"
if command -v zsh >/dev/null; then
	ok "zsh: the script parses" zsh -n "$TMP/_perflab"
	ok "zsh: loads after compinit" zsh -fc "autoload -U compinit; compinit -u -d '$TMP/zcd'; source '$TMP/_perflab'"
	mkdir -p "$TMP/fpath" && cp "$TMP/_perflab" "$TMP/fpath/"
	is "zsh: compinit finds it in \$fpath for perflab" \
		"$(zsh -fc "fpath=('$TMP/fpath' \$fpath); autoload -U compinit; compinit -u -d '$TMP/zcd2'; print -r -- \$_comps[perflab]")" "_perflab"
	cat >"$TMP/zdrive.zsh" <<'EOF'
compadd() {
	while [[ $1 == -* ]]; do
		[[ $1 == -- ]] && { shift; break }
		[[ $1 == -[SrPJXx] ]] && shift
		shift
	done
	print -rl -- "$@"
}
compset() { [[ $PREFIX == *[,=]* ]] && PREFIX=${PREFIX##*[,=]}; return 0 }
_files() { print -r -- "<files $*>" }
_describe() { print -rl -- ${${(P)2}%%:*} }
_command_names() { print -r -- "<commands>" }
_message() { : }
compdef() { : }
source $1
shift
words=("$@")
CURRENT=$#words
PREFIX=$words[-1]
_perflab
EOF
	zcomp() { zsh -f "$TMP/zdrive.zsh" "$TMP/_perflab" "$P" "$@" | sed '/^$/d' | LC_ALL=C sort -u | paste -sd' ' -; }
	is "zsh: perflab <TAB>: every command" "$(zcomp '')" "$cmds"
	is "zsh: perflab bench <TAB>: the benchmarks" "$(zcomp bench '')" "$benches"
	is "zsh: perflab check --format <TAB>" "$(zcomp check --format '')" "json prom text"
	is "zsh: perflab check --format=<TAB>" "$(zcomp check --format=)" "json prom text"
	is "zsh: perflab tune show <TAB>: the profiles" "$(zcomp tune show '')" "$profiles"
	is "zsh: perflab report -o <TAB>: directories" "$(zcomp report -o '')" "<files -/>"
	is "zsh: perflab report --fleet <TAB>: files and directories" "$(zcomp report --fleet '')" "<files >"
	is "zsh: perflab report --fleet A <TAB>: files and directories" "$(zcomp report --fleet a.tar.zst '')" "<files >"
	is "zsh: perflab report <TAB>: nothing" "$(zcomp report '')" ""
	is "zsh: perflab profile -- <TAB>: commands" "$(zcomp profile -- '')" "<commands>"
else
	skip "zsh: the script loads and completes" "zsh not installed (scripts/install-deps.sh test)"
fi

# fish: the script loads and `complete -C` answers from it.
ok "completion fish" "$P" completion fish
cp "$OUT" "$TMP/perflab.fish"
if command -v fish >/dev/null; then
	ok "fish: the script parses" fish -n "$TMP/perflab.fish"
	fcomp() { HOME=$TMP fish -c "source '$TMP/perflab.fish'; complete -C '$*'" | cut -f1 | LC_ALL=C sort -u | paste -sd' ' -; }
	is "fish: perflab <TAB>: every command" "$(fcomp 'perflab ')" "$cmds"
	is "fish: perflab bench <TAB>: the benchmarks" "$(fcomp 'perflab bench ')" "$benches"
	is "fish: perflab check --format <TAB>" "$(fcomp 'perflab check --format ')" "json prom text"
	is "fish: perflab tune show <TAB>: the profiles" "$(fcomp "$P tune show ")" "$profiles"
	is "fish: perflab inspect --domain cpu,ke<TAB>" "$(fcomp 'perflab inspect --domain cpu,ke')" "cpu,kernel"
	like "fish: perflab bench clock --b<TAB>" "$(fcomp 'perflab bench clock --b')" '^--batch$'
	is "fish: perflab report -o <TAB>: directories only" "$(fcomp "perflab report -o $TMP/files/")" "$TMP/files/sub.d/"
	is "fish: perflab check -o <TAB>: files" "$(fcomp "perflab check -o $TMP/files/a")" "$TMP/files/a.json"
	is "fish: perflab report --fleet <TAB>: files and directories" \
		"$(fcomp "perflab report --fleet $TMP/files/")" "$TMP/files/a.json $TMP/files/b.txt $TMP/files/sub.d/"
	is "fish: perflab report --fleet A <TAB>: more of them" \
		"$(fcomp "perflab report --fleet $TMP/files/a.json $TMP/files/s")" "$TMP/files/sub.d/"
	is "fish: perflab report <TAB>: nothing" "$(fcomp "perflab report $TMP/files/")" ""
	like "fish: perflab profile -- bas<TAB>: commands" "$(fcomp 'perflab profile -- bas')" '(^| )bash( |$)'
else
	skip "fish: the script loads and completes" "fish not installed (scripts/install-deps.sh test)"
fi
done_testing
