// SPDX-License-Identifier: GPL-2.0
/*
 * btf-fuzz FIRST COUNT [convert]: for each seed FIRST..FIRST+COUNT-1, build
 * one raw BTF from the seed alone (the same BTF on every kernel), load it
 * (BPF_BTF_LOAD, log level 1), create maps whose value is its struct, and
 * print one line of what the running kernel made of it:
 *
 *   SEED f=FLAGS L=LOAD g=LOG A=ARRAY H=HASH [U=TASK_STORAGE] [c=CONVERTED] | MEMBERS
 *
 * LOAD is "ok" or -errno; LOG 1 when the load log is not empty, 2 when it
 * says that a field is ignored.  A map is -errno/LOG (LOG 1: the map-create
 * log is not empty) or the bytes of the value that an update does not store
 * (special fields), as a hex bitmap, with "~" when the map-create log is
 * not empty (a field was ignored).  MEMBERS are "OFFSET:CHAIN" in the
 * notation of the series' selftests (P PTR, C CONST, V VOLATILE, R RESTRICT, D TYPEDEF, Y array,
 * T:x TYPE_TAG x, A:x TYPE_TAG x with kind_flag 1, I int, S struct
 * task_struct, F its FWD, G FWD of no kernel struct, N struct with a kptr,
 * X:name a special struct, 0 void, @ a cycle).  "convert" converts flag-clear
 * BTF with libbpf to the attribute convention, loads that and prints its
 * verdicts as c=A:ARRAY,H:HASH (or c=-errno when libbpf refuses).
 * "log" (or "convert,log") prints the kernel's log of each failure on
 * "# " lines.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/btf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#ifndef BTF_FLAG_TYPE_TAG_ATTR
#define BTF_FLAG_TYPE_TAG_ATTR 0x1
#endif

#define MAXT 512
#define DESC 160

static unsigned long long rng;
static bool show_log;

static unsigned int rnd(unsigned int n)
{
	unsigned long long z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (unsigned int)((z ^ (z >> 31)) % n);
}

static const char * const tags[] = {
	"kptr", "kptr_untrusted", "percpu_kptr", "uptr", "user", "percpu", "rcu",
	"arena", "foo",
};

/* The sizes of the kernel's structs: of another size, a struct is data. */
static const struct { const char *name; int size; } specials[] = {
	{ "bpf_spin_lock", 4 }, { "bpf_res_spin_lock", 4 }, { "bpf_timer", 16 },
	{ "bpf_wq", 16 }, { "bpf_task_work", 8 }, { "bpf_refcount", 4 },
	{ "bpf_list_head", 16 }, { "bpf_list_node", 24 }, { "bpf_rb_root", 16 },
	{ "bpf_rb_node", 32 },
};

struct gen {
	struct btf *btf;
	char desc[MAXT][DESC];
	int size[MAXT];
	int int_id, long_id, ts, fwd, nofwd, nested, special[10];
	int links[64], nlinks;
	bool uptr;
};

static int note(struct gen *g, int id, const char *d, int size)
{
	if (id <= 0 || id >= MAXT)
		return id;
	snprintf(g->desc[id], DESC, "%s", d);
	g->size[id] = size;
	return id;
}

static void base_types(struct gen *g, bool attr)
{
	struct btf *b = g->btf;
	int i, p, t;

	strcpy(g->desc[0], "0");
	g->int_id = note(g, btf__add_int(b, "int", 4, BTF_INT_SIGNED), "I", 4);
	g->long_id = note(g, btf__add_int(b, "long", 8, BTF_INT_SIGNED), "I", 8);
	g->ts = note(g, btf__add_struct(b, "task_struct", 8), "S", 8);
	btf__add_field(b, "a", g->long_id, 0, 0);
	g->fwd = note(g, btf__add_fwd(b, "task_struct", BTF_FWD_STRUCT), "F", 0);
	g->nofwd = note(g, btf__add_fwd(b, "btf_fuzz_nosuch", BTF_FWD_STRUCT), "G", 0);
	for (i = 0; i < 10; i++) {
		char d[40];

		snprintf(d, sizeof(d), "X:%s", specials[i].name + 4);
		g->special[i] = note(g, btf__add_struct(b, specials[i].name, specials[i].size),
				     d, specials[i].size);
		btf__add_field(b, "v", specials[i].size == 4 ? g->int_id : g->long_id, 0, 0);
	}
	/* a struct holding a kptr, in the convention's own idiom */
	if (attr) {
		p = btf__add_ptr(b, g->ts);
		t = btf__add_type_tag(b, "kptr_untrusted", p);
	} else {
		t = btf__add_type_tag(b, "kptr_untrusted", g->ts);
		t = btf__add_ptr(b, t);
	}
	g->nested = note(g, btf__add_struct(b, "inner", 8), "N", 8);
	btf__add_field(b, "p", t, 0, 0);
}

/* One link in front of @ref */
static int add_link(struct gen *g, int ref)
{
	struct btf *b = g->btf;
	char d[DESC + 40], name[16];
	const char *tag;
	int id, k = rnd(16), sz = ref < MAXT ? g->size[ref] : 8;
	const char *rd = ref < MAXT ? g->desc[ref] : "?";

	if (k < 5) {
		id = btf__add_ptr(b, ref);
		snprintf(d, sizeof(d), "P>%s", rd);
		return note(g, id, d, 8);
	}
	if (k < 11) {
		tag = tags[rnd(sizeof(tags) / sizeof(tags[0]))];
		g->uptr |= !strcmp(tag, "uptr");
		if (rnd(8)) {
			id = btf__add_type_tag(b, tag, ref);
			snprintf(d, sizeof(d), "T:%s>%s", tag, rd);
		} else {
			id = btf__add_type_attr(b, tag, ref);
			snprintf(d, sizeof(d), "A:%s>%s", tag, rd);
		}
		return note(g, id, d, sz);
	}
	switch (k) {
	case 11:
		id = btf__add_const(b, ref);
		snprintf(d, sizeof(d), "C>%s", rd);
		break;
	case 12:
		id = btf__add_volatile(b, ref);
		snprintf(d, sizeof(d), "V>%s", rd);
		break;
	case 13:
		id = btf__add_restrict(b, ref);
		snprintf(d, sizeof(d), "R>%s", rd);
		break;
	case 14:
		snprintf(name, sizeof(name), "td%d", btf__type_cnt(b));
		id = btf__add_typedef(b, name, ref);
		snprintf(d, sizeof(d), "D>%s", rd);
		break;
	default:
		id = btf__add_array(b, g->int_id, ref, 1);
		snprintf(d, sizeof(d), "Y>%s", rd);
		break;
	}
	return note(g, id, d, sz);
}

static int chain(struct gen *g)
{
	int end, i, n = rnd(5), k = rnd(20), id;

	if (g->nlinks && k == 0) {
		end = g->links[rnd(g->nlinks)];		/* shared nodes */
	} else if (k == 1) {
		/* a cycle of two modifiers */
		id = btf__type_cnt(g->btf);
		note(g, btf__add_const(g->btf, id + 1), "@", 8);
		end = note(g, btf__add_volatile(g->btf, id), "@", 8);
	} else {
		k = rnd(12);
		end = k < 2 ? g->int_id : k < 5 ? g->ts : k == 5 ? g->fwd :
		      k == 6 ? g->nofwd : k == 7 ? g->nested : k == 8 ? 0 :
		      g->special[rnd(10)];
		if (!end)
			note(g, 0, "0", 0);
	}
	id = end;
	for (i = 0; i < n && btf__type_cnt(g->btf) < MAXT - 8; i++) {
		id = add_link(g, id);
		if (g->nlinks < 64)
			g->links[g->nlinks++] = id;
	}
	return id;
}

/* The bytes of the value an update does not store, as a hex bitmap */
static void probe(int fd, int vsz, char *out, size_t sz)
{
	unsigned char in[256], back[256];
	int key = 0, i, n = 0;

	memset(in, 0xa5, vsz);
	memset(back, 0, vsz);
	if (bpf_map_update_elem(fd, &key, in, 0) || bpf_map_lookup_elem(fd, &key, back)) {
		snprintf(out, sz, "io-%d", errno);
		return;
	}
	for (i = 0; i < vsz; i += 4)
		n += snprintf(out + n, sz - n, "%x", (back[i] != 0xa5) | (back[i + 1] != 0xa5) << 1 |
			      (back[i + 2] != 0xa5) << 2 | (back[i + 3] != 0xa5) << 3);
}

static void map_verdict(int btf_fd, enum bpf_map_type type, int key_id, int val_id,
			int vsz, char *out, size_t sz)
{
	static char log[16384];
	LIBBPF_OPTS(bpf_log_opts, lopts, .buf = log, .size = sizeof(log), .level = 1);
	LIBBPF_OPTS(bpf_map_create_opts, opts, .btf_fd = btf_fd,
		    .btf_key_type_id = key_id, .btf_value_type_id = val_id,
		    .log_opts = &lopts);
	int fd, n;

	if (type == BPF_MAP_TYPE_TASK_STORAGE)
		opts.map_flags = BPF_F_NO_PREALLOC;
	log[0] = 0;
	fd = bpf_map_create(type, "fuzz", 4, vsz, type == BPF_MAP_TYPE_TASK_STORAGE ? 0 : 1,
			    &opts);
	if (fd < 0) {
		snprintf(out, sz, "-%d/%d", errno, log[0] != 0);
	} else {
		if (type == BPF_MAP_TYPE_TASK_STORAGE)
			snprintf(out, sz, "ok");
		else
			probe(fd, vsz, out, sz);
		close(fd);
		/* "~": created, and the log says why a field is ignored */
		n = strlen(out);
		if (log[0] && n + 1 < (int)sz)
			strcpy(out + n, "~");
	}
	if (show_log && log[0])
		printf("# map type %d: %s\n", type, log);
}

/* *@logged: 0 no log, 1 a log, 2 a log that says a field is ignored */
static int load(const void *raw, __u32 sz, __u32 flags, int *logged)
{
	static char log[65536];
	LIBBPF_OPTS(bpf_btf_load_opts, opts, .log_buf = log, .log_size = sizeof(log),
		    .log_level = 1);
	void *copy = malloc(sz);
	int fd;

	if (!copy)
		return -ENOMEM;
	memcpy(copy, raw, sz);
	((struct btf_header *)copy)->flags = flags;
	log[0] = 0;
	fd = bpf_btf_load(copy, sz, &opts);
	if (fd < 0)
		fd = -errno;
	*logged = !log[0] ? 0 : strstr(log, "ignored") ? 2 : 1;
	if (fd < 0 && show_log)
		printf("# flags %u: %s\n", flags, log);
	free(copy);
	return fd;
}

static void maps(int fd, struct gen *g, int val, int vsz, char *out, size_t sz)
{
	char a[96], h[96], u[32] = "";

	map_verdict(fd, BPF_MAP_TYPE_ARRAY, g->int_id, val, vsz, a, sizeof(a));
	map_verdict(fd, BPF_MAP_TYPE_HASH, g->int_id, val, vsz, h, sizeof(h));
	if (g->uptr) {
		strcpy(u, " U=");
		map_verdict(fd, BPF_MAP_TYPE_TASK_STORAGE, g->int_id, val, vsz, u + 3,
			    sizeof(u) - 3);
	}
	snprintf(out, sz, "A=%s H=%s%s", a, h, u);
}

static void one(unsigned long long seed, bool convert)
{
	char members[1024], verdict[256], conv[256] = "", *p;
	int i, n, off = 0, fd, val, m[4], vsz;
	struct gen *g = calloc(1, sizeof(*g));
	__u32 flags, sz;
	const void *raw;
	int logged;
	int k;

	if (!g)
		exit(1);
	rng = seed * 0x2545f4914f6cdd1dULL + 1;
	k = rnd(20);
	flags = k < 6 ? BTF_FLAG_TYPE_TAG_ATTR : k == 6 ? 0x2 : 0;
	g->btf = btf__new_empty();
	if (!g->btf)
		exit(1);
	base_types(g, flags & BTF_FLAG_TYPE_TAG_ATTR);
	n = 1 + rnd(3);
	for (i = 0; i < n; i++)
		m[i] = chain(g);
	val = btf__add_struct(g->btf, "val", 0);
	members[0] = 0;
	for (i = 0, p = members; i < n; i++) {
		int s = m[i] < MAXT ? g->size[m[i]] : 8;
		char name[8];

		snprintf(name, sizeof(name), "m%d", i);
		btf__add_field(g->btf, name, m[i], off * 8, 0);
		p += snprintf(p, members + sizeof(members) - p, " %d:%s", off,
			      m[i] < MAXT ? g->desc[m[i]] : "?");
		off += s > 8 ? (s + 7) / 8 * 8 : 8;
	}
	btf__add_field(g->btf, "x", g->long_id, off * 8, 0);
	vsz = off + 8;
	((struct btf_type *)btf__type_by_id(g->btf, val))->size = vsz;
	if (rnd(5) == 0) {
		int proto = btf__add_func_proto(g->btf, g->int_id);

		btf__add_func_param(g->btf, "a", m[0]);
		btf__add_func(g->btf, "f", BTF_FUNC_STATIC, proto);
	}
	if (rnd(5) == 0 && m[0] < MAXT && g->size[m[0]] > 0) {
		int var = btf__add_var(g->btf, "v", BTF_VAR_STATIC, m[0]);

		btf__add_datasec(g->btf, ".data", g->size[m[0]]);
		btf__add_datasec_var_info(g->btf, var, 0, g->size[m[0]]);
	}
	raw = btf__raw_data(g->btf, &sz);
	if (!raw)
		exit(1);
	fd = load(raw, sz, flags, &logged);
	if (fd < 0) {
		snprintf(verdict, sizeof(verdict), "L=%d g=%d", fd, logged);
	} else {
		char mv[200];

		maps(fd, g, val, vsz, mv, sizeof(mv));
		snprintf(verdict, sizeof(verdict), "L=ok g=%d %s", logged, mv);
		close(fd);
	}
	if (convert && !flags && fd >= 0) {
		int err = btf__convert_type_tags(g->btf, BTF_TYPE_TAG_CONV_ATTRIBUTE, NULL);

		raw = err ? NULL : btf__raw_data(g->btf, &sz);
		if (err) {
			snprintf(conv, sizeof(conv), " c=%d", err);
		} else if (raw) {
			fd = load(raw, sz, BTF_FLAG_TYPE_TAG_ATTR, &logged);
			if (fd < 0) {
				snprintf(conv, sizeof(conv), " c=L:%d", fd);
			} else {
				char mv[200];

				maps(fd, g, val, vsz, mv, sizeof(mv));
				for (p = mv; *p; p++)
					*p = *p == ' ' ? ',' : *p == '=' ? ':' : *p;
				snprintf(conv, sizeof(conv), " c=%s", mv);
				close(fd);
			}
		}
	}
	printf("%llu f=%u %s%s |%s\n", seed, flags, verdict, conv, members);
	btf__free(g->btf);
	free(g);
}

int main(int argc, char **argv)
{
	unsigned long long first, count, i;
	bool convert;

	if (argc < 3) {
		fprintf(stderr, "usage: %s FIRST COUNT [convert]\n", argv[0]);
		return 2;
	}
	first = strtoull(argv[1], NULL, 0);
	count = strtoull(argv[2], NULL, 0);
	convert = argc > 3 && strstr(argv[3], "convert");
	show_log = argc > 3 && strstr(argv[3], "log");
	libbpf_set_print(NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = first; i < first + count; i++)
		one(i, convert);
	printf("done %llu\n", count);
	return 0;
}
