/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One typed option table per command drives parsing, validation and --help (fio's
 * options.c idea, much smaller). Options may appear anywhere before "--"; everything
 * after "--" is positional. */
#ifndef PERFLAB_UTIL_OPT_H
#define PERFLAB_UTIL_OPT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** Option value types and the C type stored at base+off. */
enum pl_opt_type {
	PL_OPT_FLAG,	 /**< bool, no argument */
	PL_OPT_COUNT,	 /**< int, incremented per use (-v -v) */
	PL_OPT_STR,	 /**< const char *, points into argv */
	PL_OPT_INT,	 /**< int (range checked with min/max when max > min) */
	PL_OPT_U64,	 /**< uint64_t */
	PL_OPT_DOUBLE,	 /**< double */
	PL_OPT_SIZE,	 /**< uint64_t bytes, "4k", "1GiB" (powers of 1024); at most
			      PL_OPT_SIZE_MAX unless the option has its own range */
	PL_OPT_DURATION, /**< double seconds, "500ms", "10s", "2m"; finite, at most
			      PL_OPT_DURATION_MAX unless the option has its own range */
	PL_OPT_ENUM,	 /**< int index into choices[] */
	PL_OPT_CPUS,	 /**< const char *, syntax-checked cpulist ("0-3,8") */
	PL_OPT_STRLIST,	 /**< char **, NULL-terminated, malloc'd vector of argv pointers;
			      each use appends; free the vector (not the strings) */
};

/** Bounds of a size or duration option without its own min/max, so that every consumer
 *  can convert the value without overflow (`-d 1e308h` made profile's deadline
 *  `(uint64_t)(d * 1e9)` undefined): sizes up to 4 EiB (fit int64 and JSON integers),
 *  durations up to 30 days (fit uint64/int64 nanoseconds with room for a start time). */
#define PL_OPT_SIZE_MAX 0x1p62
#define PL_OPT_DURATION_MAX (30.0 * 86400)

/** One option. Terminate a table with PL_OPT_END. */
struct pl_opt {
	const char *name; /**< long name without "--" */
	char short_name;  /**< single letter or 0 */
	enum pl_opt_type type;
	size_t off;		    /**< offsetof() the destination in the base struct */
	const char *arg;	    /**< metavariable shown in help ("N", "FILE") */
	const char *help;	    /**< one-line help */
	const char *const *choices; /**< PL_OPT_ENUM: NULL-terminated allowed values */
	double min, max;	    /**< numeric range, checked when max > min */
	const char *def;	    /**< default shown in help, or NULL */
	char was_short;		    /**< the letter this option had before letters were made to
					 mean one thing across commands (perflab(1), OPTION LETTERS),
					 or 0; a use of it is refused with a pointer to the new
					 spelling, unless the letter is live in the same sets */
};
#define PL_OPT_END                                                                                 \
	{                                                                                          \
		0                                                                                  \
	}

/** A table plus the struct its offsets point into. */
struct pl_optset {
	const struct pl_opt *opts;
	void *base;
	const char *title; /**< heading in --help ("Options", "Global options") */
};

/** Parse result: positional arguments in order. */
struct pl_args {
	char **pos; /**< malloc'd array of argv pointers (npos entries + NULL) */
	int npos;
	int dashdash; /**< index in pos of the first argument after "--", or -1 */
};

/** Parse argv[1..argc-1] against the option sets. On error prints one line naming the
 *  option and the fix (via pl_error) and returns -EINVAL; else 0. Range errors print the
 *  bounds in the option's unit ("between 10ms and 1h, got 1ns", "between 4 KiB and
 *  1 PiB"). @cmd names the command
 *  for the error message ("perflab bench"). Free @out with pl_args_free. */
int pl_opt_parse(int argc, char **argv, const struct pl_optset *sets, size_t nsets, const char *cmd,
		 struct pl_args *out);
/** Parse a percentage option value such as "1%" or "2.5" (the % is optional) into a
 * fraction (0.01, 0.025) in @out. Accepts 0 < value <= 100. On error prints one line
 * naming --@opt and the value with the fix, and returns -EINVAL; @out is unchanged. */
int pl_opt_parse_pct(const char *opt, const char *s, double *out);
/** Free the positional array. NULL-safe. */
void pl_args_free(struct pl_args *a);
/** Print the option sets as --help text to @f. */
void pl_opt_help(FILE *f, const struct pl_optset *sets, size_t nsets);

#endif
