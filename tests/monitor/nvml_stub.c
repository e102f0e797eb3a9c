/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A stand-in for libnvidia-ml.so.1 (the monitor tests load it through PERFLAB_NVML_LIB):
 * the seven NVML entry points perflab monitor calls, with scripted values so the tests
 * can assert them in every output. NVML_STUB_GPUS sets the device count (default 2);
 * GPU i reports utilization 37 + 10 i %, memory utilization 12 %, 4 GiB + i GiB used of
 * 16 GiB, and the name "Stub GPU i". NVML_STUB_INIT_FAIL=N makes nvmlInit_v2 return N.
 * Types follow nvml.h's ABI (int return codes, opaque device pointers). */
#include <stdio.h>
#include <stdlib.h>

struct nvml_dev;
struct nvml_util {
	unsigned int gpu, memory;
};
struct nvml_mem {
	unsigned long long total, free, used;
};

static struct nvml_dev *const devs[8] = {
	(struct nvml_dev *)0x1000, (struct nvml_dev *)0x1001, (struct nvml_dev *)0x1002,
	(struct nvml_dev *)0x1003, (struct nvml_dev *)0x1004, (struct nvml_dev *)0x1005,
	(struct nvml_dev *)0x1006, (struct nvml_dev *)0x1007,
};

static int ngpu(void)
{
	const char *e = getenv("NVML_STUB_GPUS");
	int n = e ? atoi(e) : 2;
	return n < 0 ? 0 : n > 8 ? 8 : n;
}

static int index_of(struct nvml_dev *d)
{
	for (int i = 0; i < ngpu(); i++)
		if (devs[i] == d)
			return i;
	return -1;
}

int nvmlInit_v2(void);
int nvmlShutdown(void);
int nvmlDeviceGetCount_v2(unsigned int *n);
int nvmlDeviceGetHandleByIndex_v2(unsigned int i, struct nvml_dev **d);
int nvmlDeviceGetUtilizationRates(struct nvml_dev *d, struct nvml_util *u);
int nvmlDeviceGetMemoryInfo(struct nvml_dev *d, struct nvml_mem *m);
int nvmlDeviceGetName(struct nvml_dev *d, char *name, unsigned int len);

int nvmlInit_v2(void)
{
	const char *e = getenv("NVML_STUB_INIT_FAIL");
	return e ? atoi(e) : 0;
}

int nvmlShutdown(void)
{
	return 0;
}

int nvmlDeviceGetCount_v2(unsigned int *n)
{
	*n = (unsigned)ngpu();
	return 0;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned int i, struct nvml_dev **d)
{
	if ((int)i >= ngpu())
		return 2; /* NVML_ERROR_INVALID_ARGUMENT */
	*d = devs[i];
	return 0;
}

int nvmlDeviceGetUtilizationRates(struct nvml_dev *d, struct nvml_util *u)
{
	int i = index_of(d);
	if (i < 0)
		return 2;
	u->gpu = 37u + 10u * (unsigned)i;
	u->memory = 12;
	return 0;
}

int nvmlDeviceGetMemoryInfo(struct nvml_dev *d, struct nvml_mem *m)
{
	int i = index_of(d);
	if (i < 0)
		return 2;
	m->total = 16ull << 30;
	m->used = (4ull + (unsigned)i) << 30;
	m->free = m->total - m->used;
	return 0;
}

int nvmlDeviceGetName(struct nvml_dev *d, char *name, unsigned int len)
{
	int i = index_of(d);
	if (i < 0)
		return 2;
	snprintf(name, len, "Stub GPU %d", i);
	return 0;
}
