#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Counts and lists that the docs repeat are checked against their source, so adding a
# rule, fact domain, benchmark or command fails here until README.md, the man pages and
# src/cmd/list.h's summaries say so too (docs/ARCHITECTURE.md lists every place to touch). The
# README stays short (at most 15 KB) and every docs/ file it links exists.
# Sources of truth: `check --list-rules --json` and src/rules/list.h (rules, rule
# domains), src/cmd/list.h (commands), src/bench/list.h and each benchmark's
# .in_report (benchmarks), src/facts/list.h (fact domains).
. "$PERFLAB_SRCDIR/tests/lib.sh"
cd "$PERFLAB_SRCDIR" || exit 1
README=README.md
MAN=docs/man/perflab.1.scd
CHECKMAN=docs/man/perflab-check.1.scd
join() { paste -sd, -; }

# --- rules: "N rules in M domains (`src/rules/`: a, b, ...)" ---------------------------
ok "check --list-rules --json" "$PERFLAB" check --list-rules --json
cp "$OUT" "$TMP/rules.json"
nrules=$(jq '.rules | length' "$TMP/rules.json")
rdomains=$(jq -r '.rules[].domain' "$TMP/rules.json" | awk '!seen[$0]++' | join)
ndomains=$(printf '%s\n' "$rdomains" | tr , '\n' | grep -c .)
line=$(grep -E '^[0-9]+ rules in [0-9]+ domains' "$CHECKMAN")
is "the rule count line of $CHECKMAN (update it there)" \
	"$line" "$nrules rules in $ndomains domains (src/rules/: $(printf '%s' "$rdomains" | sed 's/,/, /g'))"
tables=$(sed -n 's/^PL_RULE_DOMAIN(\([a-z0-9_]*\))$/\1/p' src/rules/list.h | join)
is "rule domains with rules = src/rules/list.h's domains (a table without rules, or a domain not registered)" \
	"$rdomains" "$tables"

# --- commands: src/cmd/list.h vs usage, README, man pages -------------------------
dispatch=$(sed -n 's/^PL_COMMAND(\([a-z_]*\), *".*")$/\1/p' src/cmd/list.h | join)
like "src/cmd/list.h parsed" "$dispatch" '^bench,'
is "src/cmd/list.h is sorted (keep it sorted)" "$dispatch" "$(printf '%s\n' "$dispatch" | tr , '\n' | LC_ALL=C sort | join)"
ok "perflab --help" "$PERFLAB" --help
usage=$(sed -n '/^commands:/,/^$/p' "$OUT" | awk 'NF > 1 && $1 != "commands:" && $1 != "help" && $1 != "completion" { print $1 }' | join)
is "--help lists every command of commands[]" "$usage" "$dispatch"
readme_cmds=$(sed -n '/^## Commands/,/^## /p' "$README" |
	sed -n 's|^- \[`perflab \([a-z]*\)`\](docs/man/perflab-\1\.1\.scd): .*|\1|p' | LC_ALL=C sort | join)
is "README's Commands list has a line per command of src/cmd/list.h, linking docs/man/perflab-CMD.1.scd" \
	"$readme_cmds" "$dispatch"
man_cmds=$(sed -n '/^# COMMANDS/,/^# GLOBAL OPTIONS/p' "$MAN" | sed -n 's/^\*perflab-\([a-z]*\)\*(1)$/\1/p' |
	grep -vx mpi | LC_ALL=C sort -u | join)
is "$MAN's COMMANDS lists *perflab-CMD*(1) per command of src/cmd/list.h" "$man_cmds" "$dispatch"
got=$(for c in $(printf '%s\n' "$dispatch" | tr , ' '); do [ -f "docs/man/perflab-$c.1.scd" ] && echo "$c"; done | join)
is "a man page docs/man/perflab-CMD.1.scd per command of src/cmd/list.h" "$got" "$dispatch"
ok "docs/meson.build installs a page per command of src/cmd/list.h (it reads the list)" grep -q "read('../src/cmd/list.h')" docs/meson.build
size=$(wc -c <"$README")
if [ "$size" -le 15360 ]; then _report ok "README.md is at most 15 KB ($size bytes)"; else
	_report fail "README.md is at most 15 KB ($size bytes)" "reference detail goes to the man pages, the rest to docs/"
fi
missing=$(grep -oE '\]\((docs|benchmarks|tests)/[^)#]*' "$README" | sed 's/^](//' | sort -u |
	while read -r p; do [ -e "$p" ] || echo "$p"; done)
is "every file README.md links exists" "$missing" ""

# --- benchmarks: src/bench/list.h vs --list, src/cmd/list.h, man pages -------------------------
benches=$(sed -n 's/^PL_BENCH(\([a-z0-9_]*\))$/\1/p' src/bench/list.h | join)
like "src/bench/list.h parsed" "$benches" '^clock,'
ok "bench --list" "$PERFLAB" bench --list
is "bench --list shows list.h's benchmarks in order" \
	"$(awk 'NR > 1 && $2 ~ /^(yes|no)$/ { print $1 }' "$OUT" | join)" "$benches"
summary=$(sed -n 's/^PL_COMMAND(bench, *"[^"(]*(\([^)]*\))")$/\1/p' src/cmd/list.h | sed 's/, /,/g')
is "src/cmd/list.h's bench summary \"run a benchmark (...)\" names src/bench/list.h's benchmarks in order" "$summary" "$benches"
row=$(sed -n 's/^- \[`perflab bench`\]([^)]*): benchmarks (\([^)]*\)).*/\1/p' "$README" | sed 's/, /,/g')
is "README's Commands line for bench names list.h's benchmarks in order" "$row" "$benches"
got=$(sed -n '/^# BENCHMARKS/,/^# /p' docs/man/perflab-bench.1.scd | sed -n 's/^## \([a-z0-9_]*\)$/\1/p' | join)
is "perflab-bench(1) has a '## NAME' section under BENCHMARKS per benchmark of list.h, in order" "$got" "$benches"
inrep=$(for b in $(printf '%s\n' "$benches" | tr , ' '); do
	f=src/bench/$b.c
	[ -f "$f" ] || f=src/bench/$b/$b.c # a family folder (src/bench/meson.build)
	grep -qE '^[[:space:]]*\.in_report = true' "$f" && echo "$b"
done | join)
like "some benchmark is in_report" "$inrep" '^[a-z]'
got=$(tr '\n' ' ' <docs/man/perflab-report.1.scd |
	sed -n 's/.*The benchmarks (\([^);]*\)[^)]*) run with.*/\1/p' |
	sed -E 's/ (in the report directory|on the report.s file system|on loopback|on a built-in corpus)//g; s/, /,/g')
is "perflab-report(1): 'The benchmarks (...) run with' = the in_report ones" "$got" "$inrep"
ok "report --help" "$PERFLAB" report --help
got=$(tr '\n' ' ' <"$OUT" | sed -n 's/.*The benchmarks (\([^);]*\)[^)]*) run with.*/\1/p' |
	sed -E 's/ (in the report directory|on the report.s file system|on loopback|on a built-in corpus)//g; s/, /,/g')
is "report --help: 'The benchmarks (...)' = the in_report ones (src/cmd/report.c)" "$got" "$inrep"

# --- fact domains: src/facts/list.h vs the man page --------------------------------------
fdomains=$(sed -n 's/^PL_FACT(\([a-z0-9_]*\), *"[^"]*")$/\1/p' src/facts/list.h | join)
like "src/facts/list.h parsed" "$fdomains" '^virt,'
got=$(sed -n '/^# DESCRIPTION$/,/^# OPTIONS$/p' docs/man/perflab-inspect.1.scd | tr '\n\t' '  ' |
	sed -n 's/.*of the domains \([^.]*\)\. .*/\1/p' | sed -E 's/ +/ /g; s/^ //; s/ and /, /; s/, /,/g')
is "perflab-inspect(1) lists src/facts/list.h's domains in order" "$got" "$fdomains"
# --- docs/ARCHITECTURE.md: the files it names exist, the sections code cites exist ------
ARCH=docs/ARCHITECTURE.md
missing=$(grep -o '`[^`]*`' "$ARCH" | tr -d '`' |
	grep -E '^(src|tests|docs|include|lib|benchmarks|data|scripts)/[^ ]*$' | grep -vE '[A-Z]{3,}|\*|<' |
	sort -u | while read -r p; do [ -e "$p" ] || echo "$p"; done)
is "every path $ARCH names exists (a file moved or was renamed: update $ARCH)" "$missing" ""
missing=$(grep -o '`[^`]*`' "$ARCH" | tr -d '`' | grep -E '^[a-z0-9_]+\.(c|h|py|sh)$' | sort -u |
	while read -r f; do [ -n "$(find src tests lib -name "$f" -print -quit)" ] || echo "$f"; done)
is "every file name $ARCH mentions exists under src/, tests/ or lib/ (update $ARCH)" "$missing" ""
missing=$(grep -rhoE 'docs/ARCHITECTURE\.md, "[^"]+"' src tests --include='*.[ch]' --include='*.sh' --include='*.py' |
	sed 's/.*, "\(.*\)"/\1/' | sort -u | while read -r t; do
		grep -qxF "## $t" "$ARCH" || echo "$t"
	done)
is "every section of $ARCH cited in src/ and tests/ exists (a heading was renamed)" "$missing" ""

# --- perflab-mpi: its commands (src/mpi/commands.c's infos[] and bench) vs --help, man page
if [ -z "${PERFLAB_MPI:-}" ] || [ ! -x "$PERFLAB_MPI" ]; then
	skip "perflab-mpi commands" "perflab-mpi not built (no MPI found by meson)"
	done_testing
fi
mcmds=$( (sed -n '/^static const struct pl_cmd_info infos\[\]/,/^};/p' src/mpi/commands.c |
	sed -n 's/^[[:space:]]*{ "\([a-z]*\)",.*/\1/p'; echo bench) | LC_ALL=C sort | join)
like "src/mpi/commands.c's commands parsed" "$mcmds" '^bench,check,'
got=$(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ASAN_OPTIONS=detect_leaks=0 \
	timeout 120 "$PERFLAB_MPI" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} /^$/ {on = 0}' |
	LC_ALL=C sort | join)
is "perflab-mpi --help lists every command" "$got" "$mcmds"
got=$(sed -n '/^# SYNOPSIS/,/^# DESCRIPTION/p' docs/man/perflab-mpi.1.scd | grep -oE '\*perflab-mpi [a-z]+\*' |
	sed 's/.*perflab-mpi \([a-z]*\)\*/\1/' | LC_ALL=C sort -u | join)
is "perflab-mpi(1)'s SYNOPSIS has every command" "$got" "$mcmds"
done_testing
