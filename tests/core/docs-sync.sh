#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Counts and lists that the docs repeat are checked against their source, so adding a
# rule, fact domain, benchmark or command fails here until README.md, the man page and
# main.c's summaries say so too (docs/ARCHITECTURE.md lists every place to touch).
# Sources of truth: `check --list-rules --json` and src/rules/list.h (rules, rule
# domains), main.c's commands[] (commands), src/bench/list.h and each benchmark's
# .in_report (benchmarks), src/facts/list.h (fact domains).
. "$PERFLAB_SRCDIR/tests/lib.sh"
cd "$PERFLAB_SRCDIR" || exit 1
README=README.md
MAN=docs/man/perflab.1.scd
join() { paste -sd, -; }

# --- rules: "N rules in M domains (`src/rules/`: a, b, ...)" ---------------------------
ok "check --list-rules --json" "$PERFLAB" check --list-rules --json
cp "$OUT" "$TMP/rules.json"
nrules=$(jq '.rules | length' "$TMP/rules.json")
rdomains=$(jq -r '.rules[].domain' "$TMP/rules.json" | awk '!seen[$0]++' | join)
ndomains=$(printf '%s\n' "$rdomains" | tr , '\n' | grep -c .)
line=$(grep -E '^[0-9]+ rules in [0-9]+ domains' "$README")
is "README's rule count line (update it in README.md, perflab check section)" \
	"$line" "$nrules rules in $ndomains domains (\`src/rules/\`: $(printf '%s' "$rdomains" | sed 's/,/, /g'))"
tables=$(sed -n 's/^PL_RULE_DOMAIN(\([a-z0-9_]*\))$/\1/p' src/rules/list.h | join)
is "rule domains with rules = src/rules/list.h's domains (a table without rules, or a domain not registered)" \
	"$rdomains" "$tables"

# --- commands: main.c's commands[] vs usage, README, man page --------------------------
dispatch=$(sed -n 's/^[[:space:]]*{ *"\([a-z-]*\)", *cmd_[a-z_]*,.*/\1/p' src/main.c | join)
like "main.c's commands[] parsed" "$dispatch" '^bench,'
is "main.c's commands[] is sorted (keep it sorted)" "$dispatch" "$(printf '%s\n' "$dispatch" | tr , '\n' | LC_ALL=C sort | join)"
ok "perflab --help" "$PERFLAB" --help
usage=$(sed -n '/^commands:/,/^$/p' "$OUT" | awk 'NF > 1 && $1 != "commands:" && $1 != "help" { print $1 }' | join)
is "--help lists every command of commands[]" "$usage" "$dispatch"
readme_cmds=$(sed -n '/^## Commands/,/^### /p' "$README" | sed -n 's/^| `perflab \([a-z-]*\).*/\1/p' | LC_ALL=C sort | join)
is "README's Commands table has one row per command of main.c's commands[] (add or remove the row)" \
	"$readme_cmds" "$dispatch"
man_cmds=$(sed -n '/^# COMMANDS/,/^# GLOBAL OPTIONS/p' "$MAN" | sed -n 's/^## \([a-z-]*\)$/\1/p' | LC_ALL=C sort -u | join)
is "the man page's COMMANDS section has a '## NAME' section per command of main.c's commands[] ($MAN)" \
	"$man_cmds" "$dispatch"
for c in $(printf '%s\n' "$dispatch" | tr , ' '); do
	if grep -q "^## perflab $c\$" "$README"; then _report ok "README has a '## perflab $c' section"; else
		_report fail "README has a '## perflab $c' section" "add one to README.md"
	fi
done

# --- benchmarks: src/bench/list.h vs --list, main.c, README ----------------------------
benches=$(sed -n 's/^PL_BENCH(\([a-z0-9_]*\))$/\1/p' src/bench/list.h | join)
like "src/bench/list.h parsed" "$benches" '^clock,'
ok "bench --list" "$PERFLAB" bench --list
is "bench --list shows list.h's benchmarks in order" \
	"$(awk 'NR > 1 && $2 ~ /^(yes|no)$/ { print $1 }' "$OUT" | join)" "$benches"
summary=$(tr '\n\t' '  ' <src/main.c | sed -n 's/.*{ "bench", cmd_bench, *"[^"(]*(\([^)]*\))".*/\1/p' | sed 's/, /,/g')
is "main.c's bench summary \"run a benchmark (...)\" names list.h's benchmarks in order" "$summary" "$benches"
row=$(sed -n 's/^| `perflab bench NAME` | benchmarks: \([^|]*\), with warm-up.*/\1/p' "$README" |
	sed -e 's/ ([^)]*)//g' -e 's/, /,/g')
is "README's Commands row for bench names list.h's benchmarks in order" "$row" "$benches"
table=$(sed -n '/^| benchmark | measures | method |/,/^$/p' "$README" | sed -n 's/^| `\([a-z0-9_]*\)` |.*/\1/p' | join)
is "README's benchmark table (perflab bench) has a row per benchmark of list.h, in order" "$table" "$benches"
got=$(sed -n 's/^## bench \([a-z0-9_]*\)$/\1/p' "$MAN" | join)
is "the man page has a '## bench NAME' section per benchmark of list.h, in order ($MAN)" "$got" "$benches"
inrep=$(for b in $(printf '%s\n' "$benches" | tr , ' '); do
	grep -qE '^[[:space:]]*\.in_report = true' "src/bench/$b.c" && echo "$b"
done | join)
like "some benchmark is in_report" "$inrep" '^[a-z]'
got=$(sed -n 's/.*runs the benchmarks marked for it (\([^)]*\)).*/\1/p' "$README" | sed 's/, /,/g')
is "README (perflab bench): 'runs the benchmarks marked for it (...)' = the in_report ones" "$got" "$inrep"
got=$(sed -n '/^## perflab report/,/^## /p' "$README" | tr '\n' ' ' |
	sed -n 's/.*The benchmarks (\([^);]*\)[^)]*) run with.*/\1/p' |
	sed -E 's/ (in the report directory|on the report.s file system|on loopback|on a built-in corpus)//g; s/, /,/g')
is "README (perflab report): 'The benchmarks (...) run with' = the in_report ones" "$got" "$inrep"
ok "report --help" "$PERFLAB" report --help
got=$(tr '\n' ' ' <"$OUT" | sed -n 's/.*The benchmarks (\([^);]*\)[^)]*) run with.*/\1/p' |
	sed -E 's/ (in the report directory|on the report.s file system|on loopback|on a built-in corpus)//g; s/, /,/g')
is "report --help: 'The benchmarks (...)' = the in_report ones (src/cmd/report.c)" "$got" "$inrep"

# --- fact domains: src/facts/list.h vs README and the man page -------------------------
fdomains=$(sed -n 's/^PL_FACT(\([a-z0-9_]*\), *"[^"]*")$/\1/p' src/facts/list.h | join)
like "src/facts/list.h parsed" "$fdomains" '^virt,'
got=$(sed -n '/^| domain | keys (values) | from |/,/^$/p' "$README" | sed -n '3,$s/^| \([a-z0-9_]*\) |.*/\1/p' | join)
is "README's inspect domain table has a row per collector of src/facts/list.h, in order" "$got" "$fdomains"
got=$(sed -n '/^## inspect$/,/^## check$/p' "$MAN" | tr '\n\t' '  ' |
	sed -n 's/.*of the domains \([^.]*\)\. .*/\1/p' | sed -E 's/ +/ /g; s/^ //; s/ and /, /; s/, /,/g')
is "the man page's inspect entry lists src/facts/list.h's domains in order ($MAN)" "$got" "$fdomains"
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

# --- perflab-mpi: its commands (src/cmd/mpi.c's infos[] and bench) vs --help, man, README
if [ -z "${PERFLAB_MPI:-}" ] || [ ! -x "$PERFLAB_MPI" ]; then
	skip "perflab-mpi commands" "perflab-mpi not built (no MPI found by meson)"
	done_testing
fi
mcmds=$( (sed -n '/^static const struct pl_cmd_info infos\[\]/,/^};/p' src/cmd/mpi.c |
	sed -n 's/^[[:space:]]*{ "\([a-z]*\)",.*/\1/p'; echo bench) | LC_ALL=C sort | join)
like "src/cmd/mpi.c's commands parsed" "$mcmds" '^bench,check,'
got=$(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ASAN_OPTIONS=detect_leaks=0 \
	timeout 120 "$PERFLAB_MPI" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} /^$/ {on = 0}' |
	LC_ALL=C sort | join)
is "perflab-mpi --help lists every command" "$got" "$mcmds"
got=$(sed -n '/^# SYNOPSIS/,/^# DESCRIPTION/p' docs/man/perflab-mpi.1.scd | grep -oE '\*perflab-mpi [a-z]+\*' |
	sed 's/.*perflab-mpi \([a-z]*\)\*/\1/' | LC_ALL=C sort -u | join)
is "perflab-mpi(1)'s SYNOPSIS has every command" "$got" "$mcmds"
got=$(sed -n '/^## Clusters/,/^## perflab diff/p' "$README" | grep -oE 'perflab-mpi (report|[a-z]+)' |
	sed 's/perflab-mpi //' | LC_ALL=C sort -u | grep -xF -f <(printf '%s\n' "$mcmds" | tr , '\n') | join)
is "README's Clusters section shows every perflab-mpi command" "$got" "$mcmds"
done_testing
