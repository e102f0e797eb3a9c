/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "util/heldchild.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "util/cleanup.h"

int pl_held_child_start(char **argv, pid_t *pid, int *go_fd, int *err_fd)
{
	pl_autoclose int go_r = -1, go_w = -1, err_r = -1, err_w = -1;
	int go[2], ep[2];
	if (pipe2(go, O_CLOEXEC) < 0)
		return -errno;
	go_r = go[0];
	go_w = go[1];
	if (pipe2(ep, O_CLOEXEC) < 0)
		return -errno;
	err_r = ep[0];
	err_w = ep[1];
	pid_t p = fork();
	if (p < 0)
		return -errno;
	if (p == 0) {
		close(go_w);
		close(err_r);
		char c;
		if (read(go_r, &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		int e = errno;
		if (write(err_w, &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	*pid = p;
	*go_fd = pl_steal_fd(&go_w);
	*err_fd = pl_steal_fd(&err_r);
	return 0;
}
