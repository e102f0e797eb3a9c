/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers shared by the libFuzzer harnesses of tests/fuzz/ (docs/HACKING.md, "Fuzzing").
 *
 * A harness is one file fuzz_NAME.c defining LLVMFuzzerTestOneInput(): it turns the
 * fuzzer's bytes into the input of one real perflab parser (a string, a file, a ring
 * buffer) and calls it, checking invariants that must hold for any input. It must not
 * leak, write outside its own temporary directory, read the live system, or keep state
 * between inputs that changes what the next input does. The same file builds two ways:
 * with clang's libFuzzer in the fuzz build (-Dfuzz=true), and with replay.c as main() in
 * the ASan test build, which runs the committed corpus and regression inputs. */
#ifndef PERFLAB_TESTS_FUZZ_H
#define PERFLAB_TESTS_FUZZ_H
#include <stddef.h>
#include <stdint.h>

/** The libFuzzer entry point each harness defines. Returns 0 (the input is kept when it
 *  adds coverage) or -1 (never add it to the corpus). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/** A malloc'd NUL-terminated copy of @data (embedded NULs stay: C parsers see the text up
 *  to the first one, as they would see a file read with pl_read_file). Never NULL. */
char *fuzz_cstr(const uint8_t *data, size_t size);

/** This process's private temporary directory ("perflab-fuzz.XXXXXX" in $TMPDIR, else
 *  in /dev/shm, else /tmp: a disk file system makes file-reading harnesses ten times
 *  slower), created on first use and removed with its contents at exit. Aborts when it cannot be
 *  created (the harness cannot run). */
const char *fuzz_tmpdir(void);

/** Write @n bytes of @data to @rel (a path relative to fuzz_tmpdir(), parent
 *  directories created) replacing what was there; returns the absolute path (static
 *  buffer, valid until the next call). Aborts on a write error. */
const char *fuzz_write(const char *rel, const void *data, size_t n);

/** Remove the file @rel below fuzz_tmpdir() if it exists. */
void fuzz_remove(const char *rel);

/** Abort with @what on stderr when @cond is false: an invariant the harness checks
 *  (the fuzzer reports it as a crash with the input). */
#define FUZZ_ASSERT(cond, what)                                                                    \
	do {                                                                                       \
		if (!(cond))                                                                       \
			fuzz_fail(__FILE__, __LINE__, (what));                                     \
	} while (0)
_Noreturn void fuzz_fail(const char *file, int line, const char *what);

#endif
