/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `perflab tune hold-latency`: the [cpu] force_latency option as a foreground process.
 * A CPU wakeup latency limit lasts only while a descriptor of /dev/cpu_dma_latency is
 * open, so the plan marks force_latency MANUAL and names this command. */
#ifndef PERFLAB_TUNE_HOLD_LATENCY_H
#define PERFLAB_TUNE_HOLD_LATENCY_H

/** Hold a CPU wakeup latency limit of @usec microseconds: open /dev/cpu_dma_latency,
 *  write it as a 32-bit integer and keep the descriptor open until SIGINT/SIGTERM (the
 *  kernel's PM QoS interface, Documentation/power/pm_qos_interface.rst). Returns 0 after
 *  the signal, or -errno (-EACCES needs root, -ENOENT no PM QoS device). Live only:
 *  -EXDEV with a sysroot. */
int pl_tune_hold_latency(int usec, void (*ready)(int usec));

#endif
