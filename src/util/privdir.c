/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "util/privdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The signals that end a run by default and that a user sends to stop one, or that a
 * pipeline sends (SIGPIPE: `perflab inspect --sysroot F --json | head`). */
static const int exit_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };

static char dir_path[PATH_MAX];	    /* absolute path of the directory */
static char dir_name[NAME_MAX + 1]; /* its name in its parent */
static int parent_fd = -1;	    /* its parent, O_PATH */
static pid_t owner;		    /* the process that made it */
static volatile sig_atomic_t held;  /* a directory exists and is ours to remove */
static bool hooks_installed;	    /* atexit and the signal handlers are in place */

/* A linux_dirent64 record of getdents64(2). */
struct dent64 {
	unsigned long long ino;
	long long off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

/* At most this many descents into subdirectories per call: a bound on the walk for a
 * tree that something keeps filling while it is removed. */
#define RMTREE_MAX_DESCENTS 10000000L

int pl_rmtree_below(int dirfd)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int err = 0;
	long depth = 0, descents = 0;
	/* 8-byte aligned for the records' 64-bit members */
	_Alignas(8) char buf[4096];
	for (;;) {
		ssize_t n = getdents64(fd, buf, sizeof(buf));
		if (n < 0) {
			err = err ? err : -errno;
			n = 0;
		}
		if (n == 0) {
			if (depth == 0)
				break;
			/* the directory is empty: go up and read the parent again from its
			 * start, where rmdir of the emptied child now succeeds */
			int up = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			close(fd);
			if (up < 0)
				return err ? err : -errno;
			fd = up;
			depth--;
			if (lseek(fd, 0, SEEK_SET) < 0) {
				err = err ? err : -errno;
				break;
			}
			continue;
		}
		for (ssize_t off = 0; off < n;) {
			const struct dent64 *d = (const struct dent64 *)(buf + off);
			off += d->reclen;
			if (strcmp(d->name, ".") == 0 || strcmp(d->name, "..") == 0)
				continue;
			/* the entry's type (DT_UNKNOWN on some file systems) picks the call
			 * likely to work first */
			if (d->type != DT_DIR && (unlinkat(fd, d->name, 0) == 0 || errno == ENOENT))
				continue;
			if (d->type != DT_DIR && errno != EISDIR && errno != EPERM) {
				err = err ? err : -errno;
				goto out;
			}
			if (unlinkat(fd, d->name, AT_REMOVEDIR) == 0 || errno == ENOENT)
				continue;
			if ((errno != ENOTEMPTY && errno != EEXIST) ||
			    ++descents > RMTREE_MAX_DESCENTS) {
				err = err ? err : (errno == ENOTEMPTY ? -ENOTEMPTY : -errno);
				goto out;
			}
			int c = openat(fd, d->name,
				       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (c < 0) {
				err = err ? err : -errno;
				goto out;
			}
			close(fd);
			fd = c;
			depth++;
			break;
		}
	}
out:
	close(fd);
	return err;
}

/* Remove the directory if this process made it and still holds it. Async-signal-safe. */
static void remove_held(void)
{
	if (!held || getpid() != owner)
		return;
	held = 0;
	int fd = openat(parent_fd, dir_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		pl_rmtree_below(fd);
		close(fd);
	}
	unlinkat(parent_fd, dir_name, AT_REMOVEDIR);
	close(parent_fd);
	parent_fd = -1;
}

static void on_signal(int sig)
{
	int e = errno;
	remove_held();
	/* SA_RESETHAND restored the default action: the raised signal ends the process once
	 * this handler returns, with the status that names it */
	raise(sig);
	errno = e;
}

static void on_exit_remove(void)
{
	remove_held();
}

/* Block (@block) or restore the exit signals around a change of the held state, so a
 * handler never sees it half made. */
static void mask_signals(bool block, sigset_t *old)
{
	if (block) {
		sigset_t s;
		sigemptyset(&s);
		for (size_t i = 0; i < sizeof(exit_signals) / sizeof(exit_signals[0]); i++)
			sigaddset(&s, exit_signals[i]);
		sigprocmask(SIG_BLOCK, &s, old);
	} else {
		sigprocmask(SIG_SETMASK, old, NULL);
	}
}

static void install_hooks(void)
{
	if (hooks_installed)
		return;
	hooks_installed = true;
	atexit(on_exit_remove);
	for (size_t i = 0; i < sizeof(exit_signals) / sizeof(exit_signals[0]); i++) {
		struct sigaction old;
		/* a signal the run was started with ignored (nohup) cannot end it */
		if (sigaction(exit_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESETHAND };
		sigemptyset(&sa.sa_mask);
		sigaction(exit_signals[i], &sa, NULL);
	}
}

int pl_privdir_create(const char *prefix, const char **path)
{
	if (held && getpid() == owner)
		return -EBUSY;
	const char *base = getenv("TMPDIR");
	if (!base || !*base)
		base = access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : "/tmp";
	char real[PATH_MAX];
	if (!realpath(base, real))
		return -errno;
	int pfd = open(real, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0)
		return -errno;
	char tmpl[PATH_MAX];
	int len =
		snprintf(tmpl, sizeof(tmpl), "%s/%s.XXXXXX", strcmp(real, "/") ? real : "", prefix);
	if (len < 0 || (size_t)len >= sizeof(tmpl) || strlen(prefix) + 7 > NAME_MAX) {
		close(pfd);
		return -ENAMETOOLONG;
	}
	install_hooks();
	sigset_t old;
	mask_signals(true, &old);
	if (!mkdtemp(tmpl)) {
		int e = errno;
		mask_signals(false, &old);
		close(pfd);
		return -e;
	}
	memcpy(dir_path, tmpl, (size_t)len + 1);
	snprintf(dir_name, sizeof(dir_name), "%s", strrchr(tmpl, '/') + 1);
	parent_fd = pfd;
	owner = getpid();
	held = 1;
	mask_signals(false, &old);
	*path = dir_path;
	return 0;
}

void pl_privdir_remove(void)
{
	sigset_t old;
	mask_signals(true, &old);
	remove_held();
	mask_signals(false, &old);
}
