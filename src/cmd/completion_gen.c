/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The bash, zsh and fish scripts of `perflab completion` (completion.h), written from
 * the model of the command line. bash and zsh share two generated functions:
 * _perflab_options KEY (every option of a command, or of one benchmark as "bench:NAME")
 * and _perflab_value KEY OPTION (what the option's value is: flag, free, file, dir,
 * domains, "list WORD...", or paths: a flag after which the positional arguments are
 * files or directories); each shell's own driver walks the words typed so far (the
 * command, the benchmark, tune's subcommand, an option waiting for its value, "--"
 * before a command to run) and completes with them. fish gets one `complete` line per
 * option, with conditions on the words seen. */
#include <stdlib.h>
#include <string.h>

#include "cmd/completion.h"
#include "facts/facts.h"
#include "util/str.h"

/* @s as one single-quoted sh/bash/zsh word ('it'\''s'). */
static void sq(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

/* @s as one single-quoted fish word (\' and \\ escaped), newlines as spaces. */
static void fishq(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else
			fputc(*s == '\n' ? ' ' : *s, f);
	fputc('\'', f);
}

static const struct pl_comp_cmd *find_key(const struct pl_comp_model *m, const char *key)
{
	for (size_t i = 0; i < m->ncmds; i++)
		if (strcmp(m->cmds[i].key, key) == 0)
			return &m->cmds[i];
	return NULL;
}

static bool is_bench(const struct pl_comp_cmd *c)
{
	return strncmp(c->key, "bench:", 6) == 0;
}

/* The words of @v (NULL-terminated) separated by spaces. */
static void words(FILE *f, const char *const *v)
{
	for (size_t i = 0; v && v[i]; i++)
		fprintf(f, "%s%s", i ? " " : "", v[i]);
}

static void opt_words(FILE *f, const struct pl_comp_cmd *c, bool *first)
{
	for (size_t i = 0; i < c->nopts; i++) {
		fprintf(f, "%s--%s", *first ? "" : " ", c->opts[i].name);
		*first = false;
		if (c->opts[i].short_name)
			fprintf(f, " -%c", c->opts[i].short_name);
	}
}

static const char *kind_word(enum pl_comp_value v)
{
	switch (v) {
	case PL_COMP_FLAG:
		return "flag";
	case PL_COMP_FILE:
		return "file";
	case PL_COMP_DIR:
		return "dir";
	case PL_COMP_DOMAINS:
		return "domains";
	case PL_COMP_CHOICES:
		return "list";
	case PL_COMP_PATHS:
		return "paths";
	case PL_COMP_FREE:
		break;
	}
	return "free";
}

/* One case of _perflab_value: @o under @key ("check --workload"), or under any key when
 * @key is NULL (a global option), and also under every "bench:NAME" when @any_bench (the
 * runner's options). */
static void value_case(FILE *f, const char *key, bool any_bench, const struct pl_comp_opt *o)
{
	char sp[2][80];
	int n = 1;
	snprintf(sp[0], sizeof(sp[0]), " --%s", o->name);
	if (o->short_name)
		snprintf(sp[n++], sizeof(sp[1]), " -%c", o->short_name);
	fputc('\t', f);
	for (int k = 0; k < n; k++) {
		fputs(k ? "|" : "", f);
		if (!key) {
			fputc('*', f);
			sq(f, sp[k]);
			continue;
		}
		char *word = pl_xasprintf("%s%s", key, sp[k]);
		sq(f, word);
		free(word);
		if (any_bench) {
			fputs("|'bench:'*", f);
			sq(f, sp[k]);
		}
	}
	fprintf(f, ") echo %s", kind_word(o->value));
	if (o->value == PL_COMP_CHOICES) {
		fputc(' ', f);
		words(f, o->choices);
	}
	fputs(" ;;\n", f);
}

/* The global option @name as the model's first command has it (the default meaning). */
static const struct pl_comp_opt *default_global(const struct pl_comp_model *m, const char *name)
{
	for (size_t i = 0; i < m->ncmds; i++) {
		if (strcmp(m->cmds[i].key, "report") == 0)
			continue; /* -o DIR there */
		for (size_t j = 0; j < m->cmds[i].nopts; j++)
			if (m->cmds[i].opts[j].global && strcmp(m->cmds[i].opts[j].name, name) == 0)
				return &m->cmds[i].opts[j];
	}
	return NULL;
}

/* The word lists and the two functions that bash and zsh share. */
static void write_shared(FILE *f, const struct pl_comp_model *m)
{
	fputs("_perflab_commands='", f);
	for (size_t i = 0; i < m->ncmds; i++)
		if (!is_bench(&m->cmds[i]))
			fprintf(f, "%s ", m->cmds[i].key);
	fputs("help completion'\n_perflab_benchmarks='", f);
	bool first = true;
	for (size_t i = 0; i < m->ncmds; i++)
		if (is_bench(&m->cmds[i])) {
			fprintf(f, "%s%s", first ? "" : " ", m->cmds[i].key + 6);
			first = false;
		}
	fputs("'\n_perflab_domains='", f);
	for (size_t i = 0; i < pl_ncollectors; i++)
		fprintf(f, "%s%s", i ? " " : "", pl_collectors[i].name);
	fputs("'\n\n# _perflab_options KEY: the options of a command, or of a benchmark "
	      "(bench:NAME)\n"
	      "_perflab_options() {\n\tcase $1 in\n",
	      f);
	const struct pl_comp_cmd *bench = find_key(m, "bench");
	for (size_t i = 0; i < m->ncmds; i++) {
		const struct pl_comp_cmd *c = &m->cmds[i];
		fprintf(f, "\t%s) echo '", c->key);
		first = true;
		opt_words(f, c, &first);
		if (is_bench(c) && bench)
			opt_words(f, bench, &first);
		fputs("' ;;\n", f);
	}
	fputs("\t*) echo '", f);
	first = true;
	for (size_t i = 0; bench && i < bench->nopts; i++)
		if (bench->opts[i].global) {
			fprintf(f, "%s--%s", first ? "" : " ", bench->opts[i].name);
			first = false;
			if (bench->opts[i].short_name)
				fprintf(f, " -%c", bench->opts[i].short_name);
		}
	fputs("' ;;\n\tesac\n}\n\n", f);
	fputs("# _perflab_value KEY OPTION: what OPTION takes: flag (nothing), free, file, dir,\n"
	      "# domains (a comma-separated list), \"list WORD...\", or paths (nothing, but the\n"
	      "# positional arguments after it are files or directories)\n"
	      "_perflab_value() {\n\tcase \"$1 $2\" in\n",
	      f);
	for (size_t i = 0; i < m->ncmds; i++) {
		const struct pl_comp_cmd *c = &m->cmds[i];
		for (size_t j = 0; j < c->nopts; j++) {
			const struct pl_comp_opt *o = &c->opts[j];
			if (o->global) {
				const struct pl_comp_opt *d = default_global(m, o->name);
				if (!d || d->value == o->value)
					continue; /* the common case below */
			}
			if (o->value != PL_COMP_FLAG)
				value_case(f, c->key, c == bench && !o->global, o);
		}
	}
	for (size_t j = 0; bench && j < bench->nopts; j++) {
		const struct pl_comp_opt *o = default_global(m, bench->opts[j].name);
		if (bench->opts[j].global && o && o->value != PL_COMP_FLAG)
			value_case(f, NULL, false, o);
	}
	fputs("\t*) echo flag ;;\n\tesac\n}\n\n", f);
}

static void write_positional_cases(FILE *f, const struct pl_comp_model *m, const char *reply,
				   const char *files, const char *profiles)
{
	for (size_t i = 0; i < m->ncmds; i++) {
		const struct pl_comp_cmd *c = &m->cmds[i];
		if (!c->subcommands)
			continue;
		fprintf(f, "\t%s)\n\t\tif ((${#pos[@]} == 0)); then\n\t\t\t%s '", c->key, reply);
		words(f, c->subcommands);
		fputs("'\n", f);
		if (strcmp(c->key, "tune") == 0) {
			fputs("\t\telif [[ ' ", f);
			words(f, pl_comp_profile_subcommands);
			fprintf(f,
				" ' == *\" ${pos[1-_perflab_base]} \"* ]] && "
				"{ ((${#pos[@]} == 1)) || [[ ${pos[1-_perflab_base]} == try ]]; "
				"}; then\n\t\t\t%s\n",
				profiles);
		}
		fputs("\t\tfi ;;\n", f);
	}
	fprintf(f, "\tdiff) %s ;;\n", files);
}

static const char bash_driver[] =
	"# _perflab_reply WORDS: COMPREPLY = those of WORDS that start with $cur\n"
	"_perflab_reply() {\n"
	"\tmapfile -t COMPREPLY < <(compgen -W \"$*\" -- \"$cur\")\n"
	"}\n\n"
	"# _perflab_value_reply KIND: COMPREPLY for an option's value (_perflab_value)\n"
	"_perflab_value_reply() {\n"
	"\tcase $1 in\n"
	"\tfile)\n"
	"\t\tcompopt -o filenames 2>/dev/null\n"
	"\t\tmapfile -t COMPREPLY < <(compgen -f -- \"$cur\") ;;\n"
	"\tdir)\n"
	"\t\tcompopt -o filenames 2>/dev/null\n"
	"\t\tmapfile -t COMPREPLY < <(compgen -d -- \"$cur\") ;;\n"
	"\tdomains)\n"
	"\t\tlocal pre=\n"
	"\t\t[[ $cur == *,* ]] && pre=${cur%,*},\n"
	"\t\tmapfile -t COMPREPLY < <(compgen -P \"$pre\" -W \"$_perflab_domains\" -- "
	"\"${cur##*,}\") ;;\n"
	"\tlist*) _perflab_reply \"${1#list}\" ;;\n"
	"\tesac\n"
	"}\n\n"
	"_perflab_profiles() {\n"
	"\t_perflab_reply \"$(\"$prog\" completion --list profiles ${pdir:+--profile-dir "
	"\"$pdir\"} 2>/dev/null)\"\n"
	"}\n\n"
	"_perflab() {\n"
	"\tlocal cur=${COMP_WORDS[COMP_CWORD]} prog=${COMP_WORDS[0]} cmd= key=. w kind vkind= "
	"pdir= dd=0 paths=0 i _perflab_base=1\n"
	"\tlocal -a pos=()\n"
	"\tCOMPREPLY=()\n"
	"\t[[ $cur == = ]] && cur=\n"
	"\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
	"\t\tw=${COMP_WORDS[i]}\n"
	"\t\tif ((dd)); then\n"
	"\t\t\tdd=$((dd + 1))\n"
	"\t\t\tcontinue\n"
	"\t\tfi\n"
	"\t\tcase $w in\n"
	"\t\t--) [[ -n $cmd ]] && dd=1 ;;\n"
	"\t\t-*=* | =) ;;\n"
	"\t\t-?*)\n"
	"\t\t\tkind=$(_perflab_value \"$key\" \"$w\")\n"
	"\t\t\tif [[ $kind == paths ]]; then\n"
	"\t\t\t\tpaths=1\n"
	"\t\t\telif [[ $kind != flag ]]; then\n"
	"\t\t\t\t[[ $w == --profile-dir ]] && pdir=${COMP_WORDS[i + 1]}\n"
	"\t\t\t\tvkind=$kind\n"
	"\t\t\t\t[[ ${COMP_WORDS[i + 1]} == = ]] && i=$((i + 1))\n"
	"\t\t\t\ti=$((i + 1))\n"
	"\t\t\tfi ;;\n"
	"\t\t*)\n"
	"\t\t\tif [[ -z $cmd ]]; then\n"
	"\t\t\t\tcmd=$w key=$w\n"
	"\t\t\telse\n"
	"\t\t\t\tpos+=(\"$w\")\n"
	"\t\t\t\t[[ $cmd == bench && ${#pos[@]} == 1 ]] && key=bench:$w\n"
	"\t\t\tfi ;;\n"
	"\t\tesac\n"
	"\tdone\n"
	"\tif ((i > COMP_CWORD)); then\n"
	"\t\t_perflab_value_reply \"$vkind\"\n"
	"\telif ((dd == 1)); then\n"
	"\t\tmapfile -t COMPREPLY < <(compgen -c -- \"$cur\" | sort -u)\n"
	"\telif ((dd)); then\n"
	"\t\t_perflab_value_reply file\n"
	"\telif [[ $cur == -* ]]; then\n"
	"\t\t_perflab_reply \"$(_perflab_options \"$key\")\"\n"
	"\telif ((paths)); then\n"
	"\t\t_perflab_value_reply file\n"
	"\telse\n"
	"\t\tcase $cmd in\n"
	"\t\t'') _perflab_reply \"$_perflab_commands\" ;;\n"
	"\t\thelp) ((${#pos[@]})) || _perflab_reply \"$_perflab_commands\" ;;\n"
	"\t\tcompletion) ((${#pos[@]})) || _perflab_reply bash zsh fish ;;\n"
	"\t\tbench) ((${#pos[@]})) || _perflab_reply \"$_perflab_benchmarks\" ;;\n";

void pl_comp_write_bash(FILE *f, const struct pl_comp_model *m)
{
	fprintf(f,
		"# bash completion for perflab %s, generated by `perflab completion bash` from\n"
		"# perflab's option tables. Enable: source it (e.g. `source <(perflab completion "
		"bash)`\n# in ~/.bashrc), or install it as "
		"/usr/share/bash-completion/completions/perflab.\n\n",
		m->version);
	write_shared(f, m);
	fputs(bash_driver, f);
	write_positional_cases(f, m, "\t_perflab_reply", "_perflab_value_reply file",
			       "_perflab_profiles");
	fputs("\t\tesac\n\tfi\n\treturn 0\n}\n\ncomplete -F _perflab perflab\n", f);
}

static const char zsh_driver[] =
	"# _perflab_zvalue KIND: complete an option's value (_perflab_value)\n"
	"_perflab_zvalue() {\n"
	"\tcase $1 in\n"
	"\tfile) _files ;;\n"
	"\tdir) _files -/ ;;\n"
	"\tdomains)\n"
	"\t\tcompset -P '*,'\n"
	"\t\tcompadd -S , -r ', ' -- ${=_perflab_domains} ;;\n"
	"\tlist*) compadd -- ${=${1#list}} ;;\n"
	"\t*) _message value ;;\n"
	"\tesac\n"
	"}\n\n"
	"_perflab_profiles() {\n"
	"\tcompadd -- ${(f)\"$(${words[1]} completion --list profiles "
	"${pdir:+--profile-dir} $pdir 2>/dev/null)\"}\n"
	"}\n\n"
	"_perflab() {\n"
	"\tlocal cmd= key=. w kind vkind= pdir= i dd=0 paths=0 _perflab_base=0\n"
	"\tlocal -a pos\n"
	"\tfor ((i = 2; i < CURRENT; i++)); do\n"
	"\t\tw=$words[i]\n"
	"\t\tif ((dd)); then\n"
	"\t\t\tdd=$((dd + 1))\n"
	"\t\t\tcontinue\n"
	"\t\tfi\n"
	"\t\tcase $w in\n"
	"\t\t--) [[ -n $cmd ]] && dd=1 ;;\n"
	"\t\t-*=*) ;;\n"
	"\t\t-?*)\n"
	"\t\t\tkind=$(_perflab_value \"$key\" \"$w\")\n"
	"\t\t\tif [[ $kind == paths ]]; then\n"
	"\t\t\t\tpaths=1\n"
	"\t\t\telif [[ $kind != flag ]]; then\n"
	"\t\t\t\t[[ $w == --profile-dir ]] && pdir=$words[i+1]\n"
	"\t\t\t\tvkind=$kind\n"
	"\t\t\t\ti=$((i + 1))\n"
	"\t\t\tfi ;;\n"
	"\t\t*)\n"
	"\t\t\tif [[ -z $cmd ]]; then\n"
	"\t\t\t\tcmd=$w key=$w\n"
	"\t\t\telse\n"
	"\t\t\t\tpos+=(\"$w\")\n"
	"\t\t\t\t[[ $cmd == bench && ${#pos} == 1 ]] && key=bench:$w\n"
	"\t\t\tfi ;;\n"
	"\t\tesac\n"
	"\tdone\n"
	"\tif ((i > CURRENT)); then\n"
	"\t\t_perflab_zvalue \"$vkind\"\n"
	"\telif ((dd == 1)); then\n"
	"\t\t_command_names -e\n"
	"\telif ((dd)); then\n"
	"\t\t_files\n"
	"\telif [[ $PREFIX == -*=* ]]; then\n"
	"\t\tkind=$(_perflab_value \"$key\" \"${PREFIX%%=*}\")\n"
	"\t\tcompset -P '*='\n"
	"\t\t_perflab_zvalue \"$kind\"\n"
	"\telif [[ $PREFIX == -* ]]; then\n"
	"\t\tcompadd -- ${=$(_perflab_options \"$key\")}\n"
	"\telif ((paths)); then\n"
	"\t\t_files\n"
	"\telse\n"
	"\t\tcase $cmd in\n"
	"\t\t'') _describe command _perflab_zcommands ;;\n"
	"\t\thelp) ((${#pos})) || _describe command _perflab_zcommands ;;\n"
	"\t\tcompletion) ((${#pos})) || compadd bash zsh fish ;;\n"
	"\t\tbench) ((${#pos})) || compadd -- ${=_perflab_benchmarks} ;;\n";

void pl_comp_write_zsh(FILE *f, const struct pl_comp_model *m)
{
	fprintf(f,
		"#compdef perflab\n"
		"# zsh completion for perflab %s, generated by `perflab completion zsh` from\n"
		"# perflab's option tables. Enable: install it as _perflab in a directory of "
		"$fpath\n# (/usr/share/zsh/vendor-completions/_perflab), or source it after "
		"compinit.\n\n",
		m->version);
	write_shared(f, m);
	fputs("_perflab_zcommands=(\n", f);
	for (size_t i = 0; i < m->ncmds; i++) {
		if (is_bench(&m->cmds[i]))
			continue;
		char line[512];
		size_t k = 0;
		for (const char *s = m->cmds[i].key; *s && k < sizeof(line) - 4; s++)
			line[k++] = *s;
		line[k++] = ':';
		for (const char *s = m->cmds[i].summary; *s && k < sizeof(line) - 3; s++) {
			if (*s == ':')
				line[k++] = '\\';
			line[k++] = *s;
		}
		line[k] = '\0';
		fputc('\t', f);
		sq(f, line);
		fputc('\n', f);
	}
	fputs("\t'help:show help for a command'\n\t'completion:print the shell completion "
	      "script'\n)\n\n",
	      f);
	fputs(zsh_driver, f);
	write_positional_cases(f, m, "\tcompadd --", "_files", "_perflab_profiles");
	fputs("\t\tesac\n\tfi\n}\n\n"
	      "if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then\n"
	      "\t_perflab \"$@\"\n"
	      "else\n"
	      "\tcompdef _perflab perflab\n"
	      "fi\n",
	      f);
}

/* One fish `complete` line for option @o under @cond. */
static void fish_opt(FILE *f, const char *cond, const struct pl_comp_opt *o)
{
	fputs("complete -c perflab", f);
	if (cond) {
		fputs(" -n ", f);
		fishq(f, cond);
	}
	fprintf(f, " -l %s", o->name);
	if (o->short_name)
		fprintf(f, " -s %c", o->short_name);
	switch (o->value) {
	case PL_COMP_FLAG:
	case PL_COMP_PATHS:
		break;
	case PL_COMP_FILE:
		fputs(" -r -F", f);
		break;
	case PL_COMP_DIR:
		fputs(" -x -a '(__fish_complete_directories)'", f);
		break;
	case PL_COMP_DOMAINS:
		fputs(" -x -a '(__perflab_domains)'", f);
		break;
	case PL_COMP_CHOICES:
		fputs(" -x -a '", f);
		words(f, o->choices);
		fputc('\'', f);
		break;
	case PL_COMP_FREE:
		fputs(" -x", f);
		break;
	}
	fputs(" -d ", f);
	fishq(f, o->help);
	fputc('\n', f);
}

void pl_comp_write_fish(FILE *f, const struct pl_comp_model *m)
{
	fprintf(f,
		"# fish completion for perflab %s, generated by `perflab completion fish` from\n"
		"# perflab's option tables. Enable: `perflab completion fish | source`, or install "
		"it as\n# /usr/share/fish/vendor_completions.d/perflab.fish.\n\n",
		m->version);
	fputs("function __perflab_profiles\n"
	      "\tset -l w (commandline -opc)\n"
	      "\tset -l dir\n"
	      "\tif set -l i (contains -i -- --profile-dir $w)\n"
	      "\t\tset dir --profile-dir $w[(math $i + 1)]\n"
	      "\tend\n"
	      "\t$w[1] completion --list profiles $dir 2>/dev/null\n"
	      "end\n\n"
	      "# after \"--\": a command, then what that command completes\n"
	      "function __perflab_after_dashdash\n"
	      "\tset -l w (commandline -opc)\n"
	      "\tset -l i (contains -i -- -- $w)\n"
	      "\tset -l rest $w[(math $i + 1)..-1]\n"
	      "\tif test (count $rest) -eq 0\n"
	      "\t\tcomplete -C (commandline -ct)\n"
	      "\telse\n"
	      "\t\tcomplete -C \"$rest \"(commandline -ct)\n"
	      "\tend\n"
	      "end\n\n"
	      "function __perflab_domains\n"
	      "\tset -l t (commandline -ct)\n"
	      "\tset -l pre (string match -r '^.*,' -- $t)\n"
	      "\tfor d in",
	      f);
	for (size_t i = 0; i < pl_ncollectors; i++)
		fprintf(f, " %s", pl_collectors[i].name);
	fputs("\n\t\techo $pre$d\n\tend\nend\n\ncomplete -c perflab -f\n", f);
	char cmds[1024] = "";
	for (size_t i = 0; i < m->ncmds; i++)
		if (!is_bench(&m->cmds[i]))
			snprintf(cmds + strlen(cmds), sizeof(cmds) - strlen(cmds), " %s",
				 m->cmds[i].key);
	strncat(cmds, " help completion", sizeof(cmds) - strlen(cmds) - 1);
	char benches[1024] = "";
	for (size_t i = 0; i < m->ncmds; i++)
		if (is_bench(&m->cmds[i]))
			snprintf(benches + strlen(benches), sizeof(benches) - strlen(benches),
				 " %s", m->cmds[i].key + 6);
	char cond[1400];
	snprintf(cond, sizeof(cond), "not __fish_seen_subcommand_from%s", cmds);
	for (size_t i = 0; i < m->ncmds; i++) {
		if (is_bench(&m->cmds[i]))
			continue;
		fputs("complete -c perflab -n ", f);
		fishq(f, cond);
		fprintf(f, " -a %s -d ", m->cmds[i].key);
		fishq(f, m->cmds[i].summary);
		fputc('\n', f);
	}
	fputs("complete -c perflab -n ", f);
	fishq(f, cond);
	fputs(" -a help -d 'show help for a command'\n", f);
	fputs("complete -c perflab -n ", f);
	fishq(f, cond);
	fputs(" -a completion -d 'print the shell completion script'\n", f);
	fputs("complete -c perflab -n '__fish_seen_subcommand_from help' -a '", f);
	fputs(cmds + 1, f);
	fputs("'\ncomplete -c perflab -n '__fish_seen_subcommand_from completion' -a 'bash zsh "
	      "fish'\n",
	      f);
	/* the global options: any command, but those that mean something else there */
	const struct pl_comp_cmd *bench = find_key(m, "bench");
	for (size_t j = 0; bench && j < bench->nopts; j++) {
		const struct pl_comp_opt *g = &bench->opts[j];
		if (!g->global)
			continue;
		char other[256] = "";
		for (size_t i = 0; i < m->ncmds; i++)
			for (size_t k = 0; k < m->cmds[i].nopts; k++)
				if (m->cmds[i].opts[k].global &&
				    strcmp(m->cmds[i].opts[k].name, g->name) == 0 &&
				    m->cmds[i].opts[k].value != g->value)
					snprintf(other + strlen(other),
						 sizeof(other) - strlen(other), " %s",
						 m->cmds[i].key);
		snprintf(cond, sizeof(cond), "not __fish_seen_subcommand_from%s", other);
		fish_opt(f, other[0] ? cond : NULL, g);
	}
	for (size_t i = 0; i < m->ncmds; i++) {
		const struct pl_comp_cmd *c = &m->cmds[i];
		if (is_bench(c))
			snprintf(cond, sizeof(cond),
				 "__fish_seen_subcommand_from bench; and "
				 "__fish_seen_subcommand_from "
				 "%s",
				 c->key + 6);
		else
			snprintf(cond, sizeof(cond), "__fish_seen_subcommand_from %s", c->key);
		for (size_t j = 0; j < c->nopts; j++) {
			const struct pl_comp_opt *o = &c->opts[j], *d = default_global(m, o->name);
			if (!o->global || (d && d->value != o->value))
				fish_opt(f, cond, o);
			if (o->value == PL_COMP_PATHS) { /* files and directories after it */
				fputs("complete -c perflab -n ", f);
				char *c2 =
					pl_xasprintf("%s; and contains -- --%s (commandline -opc)",
						     cond, o->name);
				fishq(f, c2);
				free(c2);
				fputs(" -F\n", f);
			}
		}
		if (strcmp(c->key, "bench") == 0) {
			fputs("complete -c perflab -n ", f);
			snprintf(cond, sizeof(cond),
				 "__fish_seen_subcommand_from bench; and not "
				 "__fish_seen_subcommand_from%s",
				 benches);
			fishq(f, cond);
			fputs(" -a '", f);
			fputs(benches + 1, f);
			fputs("'\n", f);
		}
		if (c->subcommands) {
			fprintf(f,
				"complete -c perflab -n '__fish_seen_subcommand_from %s; and not "
				"__fish_seen_subcommand_from ",
				c->key);
			words(f, c->subcommands);
			fputs("' -a '", f);
			words(f, c->subcommands);
			fputs("'\n", f);
		}
	}
	fputs("complete -c perflab -n '__fish_seen_subcommand_from tune; and "
	      "__fish_seen_subcommand_from ",
	      f);
	words(f, pl_comp_profile_subcommands);
	fputs("' -a '(__perflab_profiles)'\n", f);
	fputs("complete -c perflab -n '__fish_seen_subcommand_from diff' -F\n", f);
	fputs("complete -c perflab -n '__fish_seen_subcommand_from profile monitor compare tune; "
	      "and contains -- -- (commandline -opc)' -a '(__perflab_after_dashdash)'\n",
	      f);
}
