// SPDX-License-Identifier: GPL-2.0
/* Time BPF_BTF_LOAD of the running kernel's vmlinux BTF.
 * Usage: btf-load-bench N; prints one "btf_load_ns N" line per load.
 */
#include <fcntl.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10, i, fd;
	const char *path = "/sys/kernel/btf/vmlinux";
	union bpf_attr attr;
	size_t size = 0, cap = 64 << 20;
	long long t0;
	char *buf;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	/* sysfs reports no size for this file: read until EOF. */
	buf = malloc(cap);
	if (!buf)
		return 1;
	for (;;) {
		ssize_t r = read(fd, buf + size, cap - size);

		if (r <= 0)
			break;
		size += r;
	}
	close(fd);
	printf("btf_size %zu\n", size);
	for (i = 0; i < n; i++) {
		memset(&attr, 0, sizeof(attr));
		attr.btf = (unsigned long)buf;
		attr.btf_size = size;
		t0 = now_ns();
		fd = syscall(__NR_bpf, BPF_BTF_LOAD, &attr, sizeof(attr));
		if (fd < 0) {
			perror("BPF_BTF_LOAD");
			return 1;
		}
		printf("btf_load_ns %lld\n", now_ns() - t0);
		close(fd);
	}
	return 0;
}
