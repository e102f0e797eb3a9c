/* SPDX-License-Identifier: GPL-3.0-or-later */
/* main() for the harnesses in the ASan test build (gcc has no libFuzzer): runs the
 * harness once on each file named on the command line, as libFuzzer does when given
 * files (`fuzz-NAME FILE...`). Prints "ran N inputs" and exits 0; a sanitizer report or
 * a broken invariant aborts, naming the input on stderr first. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"

static unsigned char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, len = 0;
	unsigned char *b = malloc(cap);
	size_t got;
	while (b && (got = fread(b + len, 1, cap - len, f)) > 0) {
		len += got;
		if (len == cap) {
			unsigned char *nb = realloc(b, cap *= 2);
			if (!nb)
				free(b);
			b = nb;
		}
	}
	fclose(f);
	*n = len;
	return b;
}

int main(int argc, char **argv)
{
	int ran = 0;
	for (int i = 1; i < argc; i++) {
		size_t n = 0;
		unsigned char *b = slurp(argv[i], &n);
		if (!b) {
			fprintf(stderr, "replay: cannot read '%s'\n", argv[i]);
			return 2;
		}
		fprintf(stderr, "replay: %s\n", argv[i]);
		LLVMFuzzerTestOneInput(b, n);
		free(b);
		ran++;
	}
	printf("ran %d inputs\n", ran);
	return 0;
}
