/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "profile/unwind.h"

#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/str.h"

/* What the libdwfl callbacks read: the sample being unwound. */
struct cur_sample {
	const struct pl_sample *s;
	pid_t pid;
	bool given;    /* next_thread returned the one thread */
	bool past_end; /* a read above the copied bytes (a caller's frame) failed */
};

struct space {
	size_t as;    /* index into pl_profile.as (the array may move) */
	size_t nmaps; /* mappings reported */
	Dwfl *dwfl;
	bool attached;
};

struct pl_unwinder {
	struct space *sp;
	size_t n;
	struct cur_sample cur;
};

static char *debuginfo_path;
static const Dwfl_Callbacks dwfl_cbs = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.debuginfo_path = &debuginfo_path,
};

struct pl_unwinder *pl_unwind_new(void)
{
	return pl_xcalloc(1, sizeof(struct pl_unwinder));
}

void pl_unwind_free(struct pl_unwinder *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->n; i++)
		if (u->sp[i].dwfl)
			dwfl_end(u->sp[i].dwfl);
	free(u->sp);
	free(u);
}

/* x86-64: perf register index (in our mask order AX BX CX DX SI DI BP SP IP R8..R15)
 * -> DWARF register number (System V psABI: 0 rax, 1 rdx, 2 rcx, 3 rbx, 4 rsi, 5 rdi,
 * 6 rbp, 7 rsp, 8-15 r8-r15, 16 return address = rip). */
static const int dwarf_of[17] = { 0, 3, 2, 1, 4, 5, 6, 7, 16, 8, 9, 10, 11, 12, 13, 14, 15 };
#define REG_SP 7

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	(void)dwfl;
	struct pl_unwinder *u = arg;
	if (u->cur.given)
		return 0;
	u->cur.given = true;
	*thread_argp = u;
	return u->cur.pid;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	(void)dwfl;
	struct pl_unwinder *u = arg;
	const struct pl_sample *s = u->cur.s;
	uint64_t sp = s->regs[REG_SP];
	if (addr < sp)
		return false;
	if (addr + 8 > sp + s->stack_dyn) {
		u->cur.past_end = true;
		return false;
	}
	memcpy(result, s->stack + (addr - sp), 8);
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct pl_unwinder *u = arg;
	const struct pl_sample *s = u->cur.s;
	Dwarf_Word regs[17];
	for (int i = 0; i < 17; i++)
		regs[dwarf_of[i]] = s->regs[i];
	return dwfl_thread_state_registers(thread, 0, 17, regs);
}

static const Dwfl_Thread_Callbacks thread_cbs = {
	.next_thread = next_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* Report every file mapping of @as to a new Dwfl at its load bias. */
static Dwfl *build(struct pl_profile *p, const struct pl_aspace *as)
{
	Dwfl *d = dwfl_begin(&dwfl_cbs);
	if (!d)
		return NULL;
	dwfl_report_begin(d);
	const struct pl_module **done = pl_xcalloc(as->nmaps + 1, sizeof(*done));
	size_t nd = 0;
	for (size_t i = 0; i < as->nmaps; i++) {
		const struct pl_map *m = &as->maps[i];
		struct pl_module *mod = m->mod;
		if (mod->jit || mod->path[0] != '/')
			continue;
		bool seen = false;
		for (size_t k = 0; k < nd; k++)
			seen |= done[k] == mod;
		if (seen)
			continue;
		pl_module_load(&p->syms, mod);
		uint64_t va;
		if (pl_module_off2vaddr(mod, m->pgoff, &va) < 0)
			continue;
		uint64_t bias = m->start - va;
		int fd = mod->fd >= 0 ? dup(mod->fd) : -1;
		if (dwfl_report_elf(d, mod->name, mod->path, fd, bias, false))
			done[nd++] = mod;
		else if (fd >= 0)
			close(fd);
	}
	free(done);
	dwfl_report_end(d, NULL, NULL);
	return d;
}

struct frames {
	uint64_t *out;
	size_t n, max;
};

static int on_frame(Dwfl_Frame *f, void *arg)
{
	struct frames *fr = arg;
	Dwarf_Addr pc;
	bool act;
	if (!dwfl_frame_pc(f, &pc, &act) || !pc)
		return DWARF_CB_ABORT;
	/* Callers' pcs are return addresses; aggregate.c subtracts 1 for all but the leaf. */
	fr->out[fr->n++] = pc;
	return fr->n < fr->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

size_t pl_unwind(struct pl_unwinder *u, struct pl_profile *p, struct pl_aspace *as,
		 const struct pl_sample *s, uint64_t *out, size_t max, bool *truncated)
{
	*truncated = false;
	if (!as || !s->regs || s->nregs < 17 || !s->stack || !max)
		return 0;
	struct space *sp = NULL;
	size_t ai = (size_t)(as - p->as);
	for (size_t i = 0; i < u->n; i++)
		if (u->sp[i].as == ai)
			sp = &u->sp[i];
	if (!sp) {
		u->sp = pl_xrealloc(u->sp, (u->n + 1) * sizeof(*u->sp));
		sp = &u->sp[u->n++];
		memset(sp, 0, sizeof(*sp));
		sp->as = ai;
	}
	if (!sp->dwfl || sp->nmaps != as->nmaps) {
		if (sp->dwfl)
			dwfl_end(sp->dwfl);
		sp->dwfl = build(p, as);
		sp->nmaps = as->nmaps;
		sp->attached = sp->dwfl &&
			       dwfl_attach_state(sp->dwfl, NULL, (pid_t)as->pid, &thread_cbs, u);
	}
	if (!sp->attached)
		return 0;
	u->cur = (struct cur_sample){ s, (pid_t)as->pid, false, false };
	struct frames fr = { out, 0, max };
	dwfl_getthread_frames(sp->dwfl, (pid_t)as->pid, on_frame, &fr);
	/* The kernel copies min(size, stack top - sp) bytes: a full copy and a caller's
	 * frame wanted beyond it mean the stack went on past the copy; an unwind that
	 * reached the outermost frame (_start's CFI marks the return address undefined)
	 * reads nothing beyond. */
	*truncated = fr.n < max && u->cur.past_end && s->stack_dyn == s->stack_size;
	return fr.n;
}
