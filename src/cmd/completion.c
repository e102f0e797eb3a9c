/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab completion bash|zsh|fish: the shell completion script, made from the option
 * tables of the commands themselves. Each command of src/cmd/list.h is called with no
 * arguments while pl_cmd_describe is set, so its own pl_cmd_parse() hands over the
 * tables it would parse (the global options included, with the command's own meaning of
 * -o), and so does `bench NAME` for each benchmark of the registry: a new option, command
 * or benchmark is in the scripts without a change here. `perflab completion --list
 * profiles` (not in --help: the scripts call it) prints the tuned profiles a `tune show
 * <TAB>` may name, found at the time of the TAB. */
#include "cmd/completion.h"

#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "cli/common.h"
#include "cmd/commands.h"
#include "config.h"
#include "facts/facts.h"
#include "rules/rules.h"
#include "tune/profile.h"
#include "util/outfile.h"
#include "util/str.h"

const char *const pl_comp_profile_subcommands[] = {
	"show", "diff", "apply", "verify", "try", NULL
};

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} commands[] = {
#define PL_COMMAND(name, summary) { #name, cmd_##name, summary },
#include "cmd/list.h"
#undef PL_COMMAND
};

/* The key being described (pl_cmd_describe's target). */
static struct pl_comp_cmd *describing;

static enum pl_comp_value value_of(const struct pl_cmd_info *info, const struct pl_opt *o,
				   const char *key, const char *const **choices)
{
	*choices = NULL;
	if (o->type == PL_OPT_FLAG && info->paths_after && strcmp(o->name, info->paths_after) == 0)
		return PL_COMP_PATHS;
	if (o->type == PL_OPT_FLAG || o->type == PL_OPT_COUNT)
		return PL_COMP_FLAG;
	if (o->type == PL_OPT_ENUM && o->choices) {
		*choices = o->choices;
		return PL_COMP_CHOICES;
	}
	if (strcmp(o->name, "workload") == 0) { /* tune's --workload is a string */
		*choices = pl_workload_names;
		return PL_COMP_CHOICES;
	}
	if (strcmp(key, "inspect") == 0 && strcmp(o->name, "domain") == 0)
		return PL_COMP_DOMAINS;
	const char *arg = o->arg ? o->arg : "";
	if (strstr(arg, "FILE") || (strlen(arg) > 5 && strcmp(arg + strlen(arg) - 5, ".json") == 0))
		return PL_COMP_FILE;
	if (strcmp(arg, "DIR") == 0)
		return PL_COMP_DIR;
	return PL_COMP_FREE;
}

/* pl_cmd_describe: copy the options of @sets into the key being described, each name
 * once (the first table that has it wins, as in the parser). */
static int describe(const struct pl_cmd_info *info, const struct pl_optset *sets, size_t nsets)
{
	struct pl_comp_cmd *c = describing;
	c->subcommands = info->subcommands;
	for (size_t s = 0; s < nsets; s++) {
		bool global = strcmp(sets[s].title, "Global options") == 0;
		for (const struct pl_opt *o = sets[s].opts; o && o->name; o++) {
			bool seen = false;
			for (size_t i = 0; i < c->nopts && !seen; i++)
				seen = strcmp(c->opts[i].name, o->name) == 0;
			if (seen)
				continue;
			c->opts = pl_xrealloc(c->opts, (c->nopts + 1) * sizeof(*c->opts));
			struct pl_comp_opt *d = &c->opts[c->nopts++];
			*d = (struct pl_comp_opt){ .name = o->name,
						   .short_name = o->short_name,
						   .help = o->help ? o->help : "",
						   .global = global };
			d->value = value_of(info, o, c->key, &d->choices);
		}
	}
	return 0;
}

static struct pl_comp_cmd *add_key(struct pl_comp_model *m, const char *key, const char *summary)
{
	m->cmds = pl_xrealloc(m->cmds, (m->ncmds + 1) * sizeof(*m->cmds));
	struct pl_comp_cmd *c = &m->cmds[m->ncmds++];
	*c = (struct pl_comp_cmd){ .key = pl_xstrdup(key), .summary = summary };
	return c;
}

/* Drop from @c the options that @base has too (a benchmark's copy of the runner's and
 * the global options). */
static void drop_common(struct pl_comp_cmd *c, const struct pl_comp_cmd *base)
{
	size_t k = 0;
	for (size_t i = 0; i < c->nopts; i++) {
		bool common = false;
		for (size_t j = 0; j < base->nopts && !common; j++)
			common = strcmp(c->opts[i].name, base->opts[j].name) == 0;
		if (!common)
			c->opts[k++] = c->opts[i];
	}
	c->nopts = k;
}

static void model_free(struct pl_comp_model *m)
{
	for (size_t i = 0; i < m->ncmds; i++) {
		free(m->cmds[i].key);
		free(m->cmds[i].opts);
	}
	free(m->cmds);
	*m = (struct pl_comp_model){ 0 };
}

/* Every command's and benchmark's tables into @m. Returns 0, or the exit code of a
 * command that did not describe itself. */
static int model_build(struct pl_comp_model *m)
{
	*m = (struct pl_comp_model){ .version = PERFLAB_VERSION };
	int (*saved)(const struct pl_cmd_info *, const struct pl_optset *, size_t) =
		pl_cmd_describe;
	const char *progname = pl_progname;
	pl_cmd_describe = describe;
	int rc = 0;
	size_t bench_at = 0;
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]) && rc == 0; i++) {
		describing = add_key(m, commands[i].name, commands[i].summary);
		char *argv[] = { (char *)commands[i].name, NULL };
		rc = commands[i].fn(1, argv);
		if (strcmp(commands[i].name, "bench") == 0)
			bench_at = m->ncmds - 1;
	}
	for (size_t i = 0; i < pl_nbenches && rc == 0; i++) {
		char key[80];
		snprintf(key, sizeof(key), "bench:%s", pl_benches[i]->name);
		describing = add_key(m, key, pl_benches[i]->summary);
		char *argv[] = { "bench", (char *)pl_benches[i]->name, NULL };
		rc = cmd_bench(2, argv);
		drop_common(describing, &m->cmds[bench_at]);
	}
	pl_cmd_describe = saved;
	pl_progname = progname;
	describing = NULL;
	return rc;
}

/* The tuned profiles along the search path (tune's), one name a line. */
static void list_profiles(const char *profile_dir)
{
	struct pl_tune_path p;
	pl_tune_path_default(&p, profile_dir);
	char **dirs = NULL;
	char **names = pl_tune_profile_list(&p, &dirs);
	for (size_t i = 0; names && names[i]; i++)
		printf("%s\n", names[i]);
	pl_strv_free(names);
	pl_strv_free(dirs);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: perflab completion bash|zsh|fish\n\n"
		   "Print the shell completion script for perflab's commands, options, benchmark\n"
		   "names, tuned profiles, fact domains and files. Enable it for this shell:\n"
		   "  source <(perflab completion bash)      # bash, e.g. in ~/.bashrc\n"
		   "  source <(perflab completion zsh)       # zsh, after compinit\n"
		   "  perflab completion fish | source       # fish\n"
		   "The packages install them where the shells look:\n"
		   "/usr/share/bash-completion/completions/perflab,\n"
		   "/usr/share/zsh/vendor-completions/_perflab,\n"
		   "/usr/share/fish/vendor_completions.d/perflab.fish.\n");
}

int cmd_completion(int argc, char **argv)
{
	pl_progname = "perflab completion";
	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		usage(stdout);
		return pl_flush_stdout() < 0 ? PL_EXIT_RUNTIME : PL_EXIT_OK;
	}
	if (argc >= 3 && strcmp(argv[1], "--list") == 0) {
		if (strcmp(argv[2], "profiles") == 0 &&
		    (argc == 3 || (argc == 5 && strcmp(argv[3], "--profile-dir") == 0))) {
			list_profiles(argc == 5 ? argv[4] : NULL);
			return PL_EXIT_OK;
		}
		pl_error("--list '%s': give profiles [--profile-dir DIR]", argv[2]);
		return PL_EXIT_USAGE;
	}
	void (*write)(FILE *, const struct pl_comp_model *) = NULL;
	if (argc == 2 && strcmp(argv[1], "bash") == 0)
		write = pl_comp_write_bash;
	else if (argc == 2 && strcmp(argv[1], "zsh") == 0)
		write = pl_comp_write_zsh;
	else if (argc == 2 && strcmp(argv[1], "fish") == 0)
		write = pl_comp_write_fish;
	if (!write) {
		if (argc < 2)
			pl_error("which shell? (give bash, zsh or fish: perflab completion bash)");
		else if (argc > 2)
			pl_error("unexpected argument '%s' (give one shell: bash, zsh or fish)",
				 argv[2]);
		else
			pl_error("unknown shell '%s' (give bash, zsh or fish)", argv[1]);
		return PL_EXIT_USAGE;
	}
	struct pl_comp_model m;
	int rc = model_build(&m);
	if (rc == 0)
		write(stdout, &m);
	model_free(&m);
	return rc;
}
