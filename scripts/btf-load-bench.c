// SPDX-License-Identifier: GPL-2.0
/* Time BPF_BTF_LOAD of the running kernel's vmlinux BTF.
 * Usage: btf-load-bench N; prints one "btf_load_ns N" line per load.
 *        btf-load-bench chain N LEN: N loads each of two generated BTFs,
 *        interleaved: LEN structs whose member shares one LEN-long run of
 *        CONST, TYPEDEF and TYPE_TAG, and the same for 2*LEN; prints
 *        "chain_load_ns LEN ns" lines.  A kptr tag turns the kptr scan on.
 *        btf-load-bench fwd N LEN: the same with LEN and 2*LEN structs
 *        { struct bpf_spin_lock l; PTR -> TAG(kptr_untrusted) -> FWD
 *        task_struct p; }; prints "fwd_load_ns LEN ns" lines (a kernel
 *        that refuses this BTF is timed too: "fwd_load_err LEN errno").
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/btf.h>
#include <stdbool.h>
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

static void put(unsigned int **p, unsigned int a, unsigned int b, unsigned int c)
{
	*(*p)++ = a;
	*(*p)++ = b;
	*(*p)++ = c;
}

#define INFO(kind, vlen) (((kind) << 24) | (vlen))

/* The header of BTF whose types are [@start, @end), with the strings @str
 * after them; returns the size of it all.
 */
static size_t finish(struct btf_header *h, unsigned int *start, unsigned int *end,
		     const char *str, size_t str_len)
{
	memset(h, 0, sizeof(*h));
	h->magic = BTF_MAGIC;
	h->version = BTF_VERSION;
	h->hdr_len = sizeof(*h);
	h->type_len = (char *)end - (char *)start;
	h->str_off = h->type_len;
	h->str_len = str_len;
	memcpy(end, str, str_len);
	return sizeof(*h) + h->type_len + h->str_len;
}

/* The BTF of "chain" mode, in @buf; returns its size. */
static size_t chain_btf(char *buf, int len)
{
	static const char str[] = "\0int\0foo\0td_t\0kptr\0task_struct\0a\0s\0m";
	struct btf_header *h = (void *)buf;
	unsigned int *p = (void *)(h + 1), *start = p;
	int i, id;

	/* 1 int, 2 struct task_struct, 3 TAG kptr -> 2, 4 PTR -> 3 */
	put(&p, 1, INFO(BTF_KIND_INT, 0), 4);
	*p++ = (BTF_INT_SIGNED << 24) | 32;
	put(&p, 19, INFO(BTF_KIND_STRUCT, 1), 4);
	put(&p, 31, 1, 0);
	put(&p, 14, INFO(BTF_KIND_TYPE_TAG, 0), 2);
	put(&p, 0, INFO(BTF_KIND_PTR, 0), 3);
	/* 5 .. 4 + len: each to the one before, as compilers order them */
	for (i = 0, id = 1; i < len; i++, id = 5 + i - 1)
		put(&p, i % 3 == 1 ? 9 : i % 3 == 2 ? 5 : 0,
		    INFO(i % 3 == 0 ? BTF_KIND_CONST : i % 3 == 1 ? BTF_KIND_TYPEDEF :
			 BTF_KIND_TYPE_TAG, 0), id);
	for (i = 0; i < len; i++) {
		put(&p, 33, INFO(BTF_KIND_STRUCT, 1), 8);
		put(&p, 35, 4 + len, 0);
	}
	return finish(h, start, p, str, sizeof(str));
}

/* The BTF of "fwd" mode, in @buf; returns its size. */
static size_t fwd_btf(char *buf, int len)
{
	static const char str[] = "\0int\0bpf_spin_lock\0val\0task_struct\0kptr_untrusted\0s\0l\0p";
	struct btf_header *h = (void *)buf;
	unsigned int *p = (void *)(h + 1), *start = p;
	int i;

	/* 1 int, 2 struct bpf_spin_lock, 3 FWD task_struct,
	 * 4 TAG kptr_untrusted -> 3, 5 PTR -> 4
	 */
	put(&p, 1, INFO(BTF_KIND_INT, 0), 4);
	*p++ = (BTF_INT_SIGNED << 24) | 32;
	put(&p, 5, INFO(BTF_KIND_STRUCT, 1), 4);
	put(&p, 19, 1, 0);
	put(&p, 23, INFO(BTF_KIND_FWD, 0), 0);
	put(&p, 35, INFO(BTF_KIND_TYPE_TAG, 0), 3);
	put(&p, 0, INFO(BTF_KIND_PTR, 0), 4);
	for (i = 0; i < len; i++) {
		put(&p, 50, INFO(BTF_KIND_STRUCT, 2), 16);
		put(&p, 52, 2, 0);
		put(&p, 54, 5, 64);
	}
	return finish(h, start, p, str, sizeof(str));
}

/* N loads each of the BTFs that @build makes for LEN and 2*LEN,
 * interleaved; prints "@mode_load_ns LEN ns" per load.  With @may_fail a
 * refused load is timed as well, and its errno printed once.
 */
static int pair_bench(const char *mode, size_t (*build)(char *, int), bool may_fail,
		      int n, int len)
{
	int i, k, fd, lens[2] = { len, 2 * len }, said[2] = {};
	union bpf_attr attr;
	char *buf[2];
	size_t sz[2];
	long long t0;

	for (k = 0; k < 2; k++) {
		buf[k] = malloc(128 + 40 * (size_t)lens[k] + 128);
		if (!buf[k])
			return 1;
		sz[k] = build(buf[k], lens[k]);
	}
	for (i = 0; i < 2 * n; i++) {
		k = i % 2;
		memset(&attr, 0, sizeof(attr));
		attr.btf = (unsigned long)buf[k];
		attr.btf_size = sz[k];
		t0 = now_ns();
		fd = syscall(__NR_bpf, BPF_BTF_LOAD, &attr, sizeof(attr));
		if (fd < 0 && !may_fail) {
			fprintf(stderr, "BPF_BTF_LOAD (%s): %s\n", mode, strerror(errno));
			return 1;
		}
		printf("%s_load_ns %d %lld\n", mode, lens[k], now_ns() - t0);
		if (fd < 0 && !said[k]++)
			printf("%s_load_err %d %d\n", mode, lens[k], errno);
		if (fd >= 0)
			close(fd);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10, i, fd;
	const char *path = "/sys/kernel/btf/vmlinux";
	union bpf_attr attr;
	size_t size = 0, cap = 64 << 20;
	long long t0;
	char *buf;

	if (argc > 3 && !strcmp(argv[1], "chain"))
		return pair_bench("chain", chain_btf, false, atoi(argv[2]), atoi(argv[3]));
	if (argc > 3 && !strcmp(argv[1], "fwd"))
		return pair_bench("fwd", fwd_btf, true, atoi(argv[2]), atoi(argv[3]));
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
