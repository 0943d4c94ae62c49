// SPDX-License-Identifier: GPL-2.0
/* Special fields next to bitfields, and pointers to user and per-CPU
 * memory, in BTF built with libbpf's writer.  Each subtest fails on a
 * kernel without the fix it is named after.
 */
#include <test_progs.h>
#include <bpf/btf.h>

/* Load @btf into the kernel; returns the fd or -errno, with the log. */
static int load_btf(struct btf *btf, char *log, size_t log_sz)
{
	LIBBPF_OPTS(bpf_btf_load_opts, opts, .log_buf = log, .log_size = log_sz,
		    .log_level = 1);
	const void *raw;
	__u32 sz;
	int fd;

	raw = btf__raw_data(btf, &sz);
	if (!raw)
		return -ENOMEM;
	log[0] = 0;
	fd = bpf_btf_load(raw, sz, &opts);
	return fd < 0 ? -errno : fd;
}

/* Write @sz bytes of 0xff into an array map of values @val_id and read
 * them back; returns the byte at @off.  The kernel zeroes a special field
 * on the way, and copies plain data.
 */
static int roundtrip_byte(int btf_fd, int int_id, int val_id, __u32 sz, __u32 off,
			  __u64 flags)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .btf_fd = btf_fd,
		    .btf_key_type_id = int_id, .btf_value_type_id = val_id);
	unsigned char in[64], out[64] = {};
	int fd, key = 0, ret;

	if (sz > sizeof(in) || off >= sz)
		return -EINVAL;
	memset(in, 0xff, sz);
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "fix_val", 4, sz, 1, &opts);
	if (fd < 0)
		return -errno;
	ret = bpf_map_update_elem(fd, &key, in, flags);
	if (!ret)
		ret = bpf_map_lookup_elem_flags(fd, &key, out, flags);
	close(fd);
	return ret ? -errno : out[off];
}

/* Load @btf and check a value @val of @sz bytes in an array map, updated
 * and looked up with @flags: the special field at 0 reads back as zero,
 * the bitfields at @bits as written.
 */
static void check_field_kept(struct btf *btf, int int_id, int val, __u32 sz, __u32 bits,
			     __u64 flags, const char *field)
{
	char log[4096];
	int btf_fd;

	btf_fd = load_btf(btf, log, sizeof(log));
	if (!ASSERT_GE(btf_fd, 0, "load")) {
		printf("log: %s\n", log);
		return;
	}
	ASSERT_EQ(roundtrip_byte(btf_fd, int_id, val, sz, 0, flags), 0, field);
	ASSERT_EQ(roundtrip_byte(btf_fd, int_id, val, sz, bits, flags), 0xff, "bitfields");
	close(btf_fd);
}

/* struct val { struct bpf_spin_lock lock; int a:3, b:5; }: a value with a
 * spin lock and bitfields that do not start a byte.  Its BTF failed to
 * load with -EINVAL, and BPF_F_LOCK needs the lock to be found.
 */
static void test_bitfield_spin_lock(void)
{
	int int_id, lock, val;
	struct btf *btf;

	btf = btf__new_empty();
	if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
		return;
	int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	lock = btf__add_struct(btf, "bpf_spin_lock", 4);
	btf__add_field(btf, "val", int_id, 0, 0);
	val = btf__add_struct(btf, "val", 8);
	btf__add_field(btf, "lock", lock, 0, 0);
	btf__add_field(btf, "a", int_id, 32, 3);
	btf__add_field(btf, "b", int_id, 35, 5);
	check_field_kept(btf, int_id, val, 8, 4, BPF_F_LOCK, "lock");
	btf__free(btf);
}

/* struct val { struct bpf_timer t; int a:3, b:5; }: the BTF loads, and the
 * map was created without its timer, which then read as plain data.
 */
static void test_bitfield_timer(void)
{
	int int_id, long_id, timer, val;
	struct btf *btf;

	btf = btf__new_empty();
	if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
		return;
	int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	long_id = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	timer = btf__add_struct(btf, "bpf_timer", 16);
	btf__add_field(btf, "a", long_id, 0, 0);
	btf__add_field(btf, "b", long_id, 64, 0);
	val = btf__add_struct(btf, "val", 24);
	btf__add_field(btf, "t", timer, 0, 0);
	btf__add_field(btf, "a", int_id, 128, 3);
	btf__add_field(btf, "b", int_id, 131, 5);
	check_field_kept(btf, int_id, val, 24, 16, 0, "timer");
	btf__free(btf);
}

/* Add the chain @s, outermost first, separated by '>': T:x TYPE_TAG x,
 * P PTR, C CONST, D TYPEDEF, I @long_id, S @leaf.  Returns its head.
 */
static int add_chain(struct btf *btf, const char *s, int long_id, int leaf)
{
	const char *end = s + strlen(s), *p;
	char name[32];
	int id = -1, len;

	/* Built from the end: each type points to the one after it. */
	while (end > s) {
		p = end;
		while (p > s && p[-1] != '>')
			p--;
		len = end - p;
		if (len == 1 && *p == 'I') {
			id = long_id;
		} else if (len == 1 && *p == 'S') {
			id = leaf;
		} else if (len == 1 && *p == 'P') {
			id = btf__add_ptr(btf, id);
		} else if (len == 1 && *p == 'C') {
			id = btf__add_const(btf, id);
		} else if (len == 1 && *p == 'D') {
			id = btf__add_typedef(btf, "td_t", id);
		} else if (len > 2 && !strncmp(p, "T:", 2) && len - 2 < (int)sizeof(name)) {
			snprintf(name, sizeof(name), "%.*s", len - 2, p + 2);
			id = btf__add_type_tag(btf, name, id);
		} else {
			return -EINVAL;
		}
		if (id < 0)
			return id;
		end = p > s ? p - 1 : p;
	}
	return id;
}

/* Load a tc program that allocates struct node { <chain> p; } with
 * bpf_obj_new() (kfunc @new_id, freed with @drop_id), reads p and, if
 * @deref, what p points to: the verifier types p from the program's BTF
 * with btf_struct_walk().  long is I, and struct leaf { long a; } is S.
 * Returns the program fd or -errno, with the verifier log in @log.
 */
static int load_reader(const char *chain, bool deref, int new_id, int drop_id,
		       char *log, size_t log_sz)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_level = 1, .log_buf = log,
		    .log_size = log_sz);
	int btf_fd, fd, n = 0, int_id, long_id, skb, leaf, p, node, proto, main_id;
	struct bpf_func_info fi = {};
	struct bpf_insn insns[16];
	char blog[4096];
	struct btf *btf;

	btf = btf__new_empty();
	if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
		return -ENOMEM;
	int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	long_id = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	skb = btf__add_struct(btf, "__sk_buff", 4);
	btf__add_field(btf, "len", int_id, 0, 0);
	leaf = btf__add_struct(btf, "leaf", 8);
	btf__add_field(btf, "a", long_id, 0, 0);
	p = add_chain(btf, chain, long_id, leaf);
	if (!ASSERT_GT(p, 0, chain)) {
		btf__free(btf);
		return -EINVAL;
	}
	node = btf__add_struct(btf, "node", 8);
	btf__add_field(btf, "p", p, 0, 0);
	proto = btf__add_func_proto(btf, int_id);
	btf__add_func_param(btf, "ctx", btf__add_ptr(btf, skb));
	main_id = btf__add_func(btf, "main", BTF_FUNC_GLOBAL, proto);
	btf_fd = load_btf(btf, blog, sizeof(blog));
	btf__free(btf);
	if (btf_fd < 0) {
		snprintf(log, log_sz, "%s", blog);
		return btf_fd;
	}

	/* r6 = bpf_obj_new(node); if (r6) { r1 = r6->p; [r1 = *r1;] drop } */
	insns[n++] = BPF_MOV64_IMM(BPF_REG_1, node);
	insns[n++] = BPF_MOV64_IMM(BPF_REG_2, 0);
	insns[n++] = BPF_RAW_INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, new_id);
	/* to "r0 = 0": over the 5 or 7 instructions that use the object */
	insns[n++] = BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, deref ? 7 : 5);
	insns[n++] = BPF_MOV64_REG(BPF_REG_6, BPF_REG_0);
	insns[n++] = BPF_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_6, 0);
	if (deref) {
		insns[n++] = BPF_JMP_IMM(BPF_JEQ, BPF_REG_1, 0, 1);
		insns[n++] = BPF_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_1, 0);
	}
	insns[n++] = BPF_MOV64_REG(BPF_REG_1, BPF_REG_6);
	insns[n++] = BPF_MOV64_IMM(BPF_REG_2, 0);
	insns[n++] = BPF_RAW_INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, drop_id);
	insns[n++] = BPF_MOV64_IMM(BPF_REG_0, 0);
	insns[n++] = BPF_EXIT_INSN();

	fi.type_id = main_id;
	opts.prog_btf_fd = btf_fd;
	opts.func_info = &fi;
	opts.func_info_rec_size = sizeof(fi);
	opts.func_info_cnt = 1;
	log[0] = 0;
	fd = bpf_prog_load(BPF_PROG_TYPE_SCHED_CLS, "fix_reader", "GPL", insns, n, &opts);
	fd = fd < 0 ? -errno : fd;
	close(btf_fd);
	return fd;
}

struct reader_case {
	const char *chain;
	bool deref;
	const char *msg;	/* NULL: the program loads */
};

static void run_reader_cases(const struct reader_case *cases, int n)
{
	int i, fd, new_id, drop_id;
	struct btf *vmlinux;
	char log[8192];

	vmlinux = btf__load_vmlinux_btf();
	if (!ASSERT_OK_PTR(vmlinux, "vmlinux"))
		return;
	new_id = btf__find_by_name_kind(vmlinux, "bpf_obj_new_impl", BTF_KIND_FUNC);
	drop_id = btf__find_by_name_kind(vmlinux, "bpf_obj_drop_impl", BTF_KIND_FUNC);
	btf__free(vmlinux);
	if (!ASSERT_GT(new_id, 0, "bpf_obj_new_impl") ||
	    !ASSERT_GT(drop_id, 0, "bpf_obj_drop_impl"))
		return;

	for (i = 0; i < n; i++) {
		fd = load_reader(cases[i].chain, cases[i].deref, new_id, drop_id, log,
				 sizeof(log));
		if (!cases[i].msg) {
			if (!ASSERT_GE(fd, 0, cases[i].chain))
				printf("log: %s\n", log);
		} else {
			ASSERT_LT(fd, 0, cases[i].chain);
			if (!ASSERT_HAS_SUBSTR(log, cases[i].msg, cases[i].chain))
				printf("log: %s\n", log);
		}
		if (fd >= 0)
			close(fd);
	}
}

/* A pointer to user or per-CPU memory whose pointee is not a struct stays
 * a scalar: it was untrusted read-only memory, which a program reads as
 * kernel memory.  A plain pointer to a long is still such memory.
 */
static void test_user_percpu_nonstruct(void)
{
	static const struct reader_case cases[] = {
		{ "P>I", true, NULL },
		{ "P>T:user>I", true, "invalid mem access 'scalar'" },
		{ "P>T:percpu>I", true, "invalid mem access 'scalar'" },
		{ "C>P>T:user>I", true, "invalid mem access 'scalar'" },
		{ "P>T:rcu>I", true, NULL },
		{ "P>T:user>T:percpu>I", false, "has multiple type tags" },
	};

	run_reader_cases(cases, ARRAY_SIZE(cases));
}

void test_btf_field_fixes(void)
{
	if (test__start_subtest("bitfield_spin_lock"))
		test_bitfield_spin_lock();
	if (test__start_subtest("bitfield_timer"))
		test_bitfield_timer();
	if (test__start_subtest("user_percpu_nonstruct"))
		test_user_percpu_nonstruct();
}
