/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Runs a command under a seccomp filter that makes perf_event_open fail with a given
 * errno, as a container's seccomp profile does (Docker's and Podman's default answer
 * EPERM; some filters answer ENOSYS), for the refusal-advice tests of perflab profile:
 *   seccomp-wrap EPERM|EACCES|ENOSYS CMD ARGS...
 * Every other system call is allowed. libseccomp sets no_new_privs, so this works
 * without privileges too. Exit 126 when the filter cannot be installed, 127 when CMD
 * cannot be run. */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: seccomp-wrap EPERM|EACCES|ENOSYS CMD ARGS...\n");
		return 2;
	}
	int e = strcmp(argv[1], "EPERM") == 0	 ? EPERM
		: strcmp(argv[1], "EACCES") == 0 ? EACCES
		: strcmp(argv[1], "ENOSYS") == 0 ? ENOSYS
						 : 0;
	if (!e) {
		fprintf(stderr, "seccomp-wrap: '%s': give EPERM, EACCES or ENOSYS\n", argv[1]);
		return 2;
	}
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx) {
		fprintf(stderr, "seccomp-wrap: seccomp_init failed\n");
		return 126;
	}
	int r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(e), SCMP_SYS(perf_event_open), 0);
	if (r == 0)
		r = seccomp_load(ctx);
	seccomp_release(ctx);
	if (r < 0) {
		fprintf(stderr, "seccomp-wrap: cannot install the filter: %s\n", strerror(-r));
		return 126;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "seccomp-wrap: cannot run '%s': %s\n", argv[2], strerror(errno));
	return 127;
}
