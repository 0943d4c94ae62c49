// SPDX-License-Identifier: GPL-2.0
/* Type tag chains in both BTF type tag conventions, from raw BTF: what the
 * kernel makes of them.
 */
#include <test_progs.h>
#include <bpf/btf.h>
#include <linux/btf.h>
#include <linux/filter.h>
#include <sys/mman.h>
#include "btf_tag_helpers.h"

struct tag_case {
	const char *name;
	/* The member's chain (btf_tag_add_chain()) */
	const char *chain;
	enum btf_tag_expect pointee, attr;
	const char *msg;	/* for LOAD_FAIL */
	int map_err;		/* for MAP_FAIL: map creation's -errno */
};

#define NOT_PTR "annotates STRUCT, not a pointer (attribute convention)"
#define NOT_MEM "annotates a pointer, not the memory it points to (attribute convention)"
#define CONFLICT "conflicts with type tag"

static const struct tag_case cases[] = {
	/* The pointee convention's idiom: struct task_struct __kptr *p */
	{ "ptr_tag", "P>T:kptr_untrusted>S", SPECIAL, LOAD_FAIL, NOT_PTR },
	{ "ptr_tag_ref", "P>T:kptr>S", SPECIAL, LOAD_FAIL, NOT_PTR },
	/* The attribute convention's idiom: struct task_struct * __kptr p */
	{ "tag_ptr", "T:kptr_untrusted>P>S", SPECIAL, SPECIAL },
	{ "tag_ptr_ref", "T:kptr>P>S", SPECIAL, SPECIAL },
	/* Qualified pointers */
	{ "const_ptr_tag", "C>P>T:kptr_untrusted>S", SPECIAL, LOAD_FAIL, NOT_PTR },
	{ "volatile_ptr_tag", "V>P>T:kptr_untrusted>S", SPECIAL, LOAD_FAIL, NOT_PTR },
	{ "const_volatile_ptr_tag", "V>C>P>T:kptr_untrusted>S", SPECIAL, LOAD_FAIL, NOT_PTR },
	{ "tag_const_ptr", "T:kptr_untrusted>C>P>S", SPECIAL, SPECIAL },
	{ "const_tag_ptr", "C>T:kptr_untrusted>P>S", SPECIAL, SPECIAL },
	{ "tag_restrict_ptr", "T:kptr_untrusted>R>P>S", SPECIAL, SPECIAL },
	{ "ptr_const_tag", "P>C>T:kptr_untrusted>S", SPECIAL, LOAD_FAIL, NOT_PTR },
	/* Typedefs: Clang 23's typedef of a tagged pointer, and a typedef of
	 * a pointer to a tagged struct (all compilers).
	 */
	{ "typedef_tag_ptr", "D>T:kptr_untrusted>P>S", SPECIAL, SPECIAL },
	{ "typedef_ptr_tag", "D>P>T:kptr_untrusted>S", SPECIAL, LOAD_FAIL, NOT_PTR },
	{ "tag_typedef_ptr", "T:kptr_untrusted>D>P>S", SPECIAL, SPECIAL },
	/* The same tag on both sides */
	{ "tag_ptr_tag_same", "T:kptr_untrusted>P>T:kptr_untrusted>S", SPECIAL, LOAD_FAIL,
	  NOT_PTR },
	/* GCC prunes a struct only reached through pointers to a FWD */
	{ "ptr_tag_fwd", "P>T:kptr_untrusted>F", SPECIAL, LOAD_FAIL,
	  "annotates FWD, not a pointer" },
	{ "tag_ptr_fwd", "T:kptr_untrusted>P>F", SPECIAL, SPECIAL },
	{ "ptr_tag_fwd_unknown", "P>T:kptr_untrusted>G", DATA, LOAD_FAIL,
	  "annotates FWD, not a pointer" },
	{ "tag_ptr_fwd_unknown", "T:kptr_untrusted>P>G", DATA, MAP_FAIL, NULL, -EINVAL },
	/* Conflicts: without the flag, the map is created as before, without
	 * special fields, and its log names the member.
	 */
	{ "tag_ptr_tag_conflict", "T:kptr_untrusted>P>T:kptr>S", DATA, LOAD_FAIL, NOT_PTR },
	{ "tag_tag_ptr_conflict", "T:kptr_untrusted>T:kptr>P>S", DATA, LOAD_FAIL, CONFLICT },
	{ "ptr_tag_tag_conflict", "P>T:kptr_untrusted>T:kptr>S", DATA, LOAD_FAIL, NOT_PTR },
	/* Unknown tags and attributes (kind_flag) never count */
	{ "unknown_tag_ptr", "T:foo>P>S", DATA, DATA },
	{ "ptr_unknown_tag", "P>T:foo>S", DATA, DATA },
	{ "ptr_unknown_tag_kptr", "P>T:foo>T:kptr_untrusted>S", SPECIAL, LOAD_FAIL, NOT_PTR },
	{ "attr_ptr", "A:kptr_untrusted>P>S", DATA, DATA },
	{ "ptr_attr", "P>A:kptr_untrusted>S", DATA, DATA },
	/* Pointee-memory tags on a plain pointer member */
	{ "ptr_user", "P>T:user>I", DATA, DATA },
	{ "ptr_percpu", "P>T:percpu>I", DATA, DATA },
	{ "ptr_rcu", "P>T:rcu>S", DATA, DATA },
	{ "user_ptr", "T:user>P>I", DATA, LOAD_FAIL, NOT_MEM },
	{ "rcu_typedef_ptr", "T:rcu>D>P>S", DATA, LOAD_FAIL, NOT_MEM },
	{ "ptr_user_ptr_user", "P>T:user>P>T:user>I", DATA, DATA },
	/* Arrays of tagged pointers (GCC 16 drops the tags of int __tag *a[1]) */
	{ "array_ptr_tag", "Y>P>T:kptr_untrusted>S", SPECIAL, LOAD_FAIL, NOT_PTR },
	{ "array_tag_ptr", "Y>T:kptr_untrusted>P>S", SPECIAL, SPECIAL },
	{ "array_ptr_user", "Y>P>T:user>I", DATA, DATA },
	{ "array_user_ptr", "Y>T:user>P>I", DATA, LOAD_FAIL, NOT_MEM },
	/* A pointer property on the inner pointer of a pointer to pointer */
	{ "ptr_tag_ptr", "P>T:kptr_untrusted>P>S", DATA, DATA },
	/* Non-pointer tags never change what a field is */
	{ "tag_int", "T:foo>I", DATA, DATA },
	{ "const_tag_int", "C>T:foo>I", DATA, DATA },
	{ "user_int", "T:user>I", DATA, DATA },
	{ "kptr_int", "T:kptr>I", DATA, LOAD_FAIL, "annotates INT, not a pointer" },
	{ "tag_spin_lock", "T:foo>L", SPECIAL, SPECIAL },
	{ "tag_tag_spin_lock", "T:foo>T:bar>L", SPECIAL, SPECIAL },
	{ "attr_spin_lock", "A:foo>L", SPECIAL, SPECIAL },
	{ "tag_nested_kptr", "T:foo>N", SPECIAL, SPECIAL },
};

static const char * const conv_str[] = { "pointee", "attr" };

static void run_case(const struct tag_case *c, bool attr)
{
	enum btf_tag_expect want = attr ? c->attr : c->pointee, got;
	char log[4096], kind[64];
	const char *want_kind;
	struct btf *btf;
	int val;

	btf = btf__new_empty();
	if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
		return;
	val = btf_tag_build(btf, c->chain, attr);
	if (!ASSERT_GT(val, 0, "build"))
		goto out;
	got = btf_tag_verdict_kind(btf, attr * BTF_FLAG_TYPE_TAG_ATTR, val, log, sizeof(log),
				   kind, sizeof(kind));
	if (!ASSERT_STREQ(btf_tag_expect_str[got], btf_tag_expect_str[want], c->chain))
		printf("log: %s\n", log);
	if (got == LOAD_FAIL && want == LOAD_FAIL && c->msg)
		ASSERT_HAS_SUBSTR(log, c->msg, "log");
	if (got == MAP_FAIL && want == MAP_FAIL)
		ASSERT_EQ(btf_tag_map_err, c->map_err, "map errno");
	want_kind = btf_tag_kptr_kind(c->chain);
	if (got == SPECIAL && want == SPECIAL && want_kind)
		ASSERT_STREQ(kind, want_kind, "kptr kind");
out:
	btf__free(btf);
}

/* Tags on non-pointer types elsewhere: variables, data sections and
 * function prototypes.  They load in both conventions.
 */
static void test_non_ptr_elsewhere(void)
{
	char log[4096];
	int i, fd, int_id, t1, t2, var, sec, proto;
	struct btf *btf;

	for (i = 0; i < 2; i++) {
		btf = btf__new_empty();
		if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
			return;
		int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
		t1 = btf__add_type_tag(btf, "foo", int_id);
		t2 = btf__add_const(btf, t1);
		var = btf__add_var(btf, "v", BTF_VAR_GLOBAL_ALLOCATED, t2);
		sec = btf__add_datasec(btf, ".data", 4);
		btf__add_datasec_var_info(btf, var, 0, 4);
		proto = btf__add_func_proto(btf, t1);
		btf__add_func_param(btf, "a", t1);
		btf__add_func_param(btf, "b", btf__add_type_tag(btf, "user", int_id));
		ASSERT_GT(btf__add_func(btf, "f", BTF_FUNC_GLOBAL, proto), 0, "func");
		ASSERT_GT(sec, 0, "datasec");
		fd = btf_tag_load(btf, i * BTF_FLAG_TYPE_TAG_ATTR, log, sizeof(log));
		if (!ASSERT_GE(fd, 0, conv_str[i]))
			printf("log: %s\n", log);
		else
			close(fd);
		btf__free(btf);
	}
}

/* Tags on the map key and value types themselves. */
static void test_tagged_key_value(void)
{
	__u64 in[2] = { ~0ULL, 1 }, out[2] = {};
	int i, fd, val, key_id, val_id;
	char log[4096];
	struct btf *btf;

	for (i = 0; i < 2; i++) {
		btf = btf__new_empty();
		if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
			return;
		val = btf_tag_build(btf, "T:foo>L", i);
		key_id = btf__add_type_tag(btf, "foo", 1 /* int */);
		val_id = btf__add_type_tag(btf, "bar", val);
		fd = btf_tag_load(btf, i * BTF_FLAG_TYPE_TAG_ATTR, log, sizeof(log));
		if (!ASSERT_GE(fd, 0, "load")) {
			printf("log: %s\n", log);
			btf__free(btf);
			return;
		}
		/* BPF_F_LOCK needs the spin lock to be found. */
		if (ASSERT_OK(btf_tag_map_roundtrip(fd, key_id, val_id, sizeof(in), in,
						    out, BPF_F_LOCK), "map"))
			ASSERT_EQ((__u32)out[0], 0, "lock zeroed");
		close(fd);
		btf__free(btf);
	}
}

/* Each special struct behind a type tag, in both conventions.  A graph
 * root also gets the spin lock and the node type it needs.
 */
static void test_special_behind_tag(void)
{
	static const struct {
		const char *name;
		int size;
		const char *node;	/* a graph root's node type */
		int node_size;
	} fields[] = {
		{ "bpf_spin_lock", 4 },
		{ "bpf_res_spin_lock", 4 },
		{ "bpf_timer", 16 },
		{ "bpf_wq", 16 },
		{ "bpf_task_work", 8 },
		{ "bpf_refcount", 4 },
		{ "bpf_list_head", 16, "bpf_list_node", 24 },
		{ "bpf_rb_root", 16, "bpf_rb_node", 32 },
	};
	int i, attr, fd, int_id, long_id, st, tag, val, vsz, off, node, lock;
	__u8 in[48], out[48];
	char log[4096];
	struct btf *btf;

	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		for (attr = 0; attr < 2; attr++) {
			btf = btf__new_empty();
			if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
				return;
			off = (fields[i].size + 7) / 8 * 8;
			vsz = off + (fields[i].node ? 16 : 8);
			int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
			long_id = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
			st = btf__add_struct(btf, fields[i].name, fields[i].size);
			btf__add_field(btf, "a", int_id, 0, 0);
			tag = btf__add_type_tag(btf, "foo", st);
			if (fields[i].node) {
				lock = btf__add_struct(btf, "bpf_spin_lock", 4);
				btf__add_field(btf, "a", int_id, 0, 0);
				node = btf__add_struct(btf, fields[i].node, fields[i].node_size);
				btf__add_field(btf, "a", int_id, 0, 0);
				btf__add_struct(btf, "elem", 8 + fields[i].node_size);
				btf__add_field(btf, "v", long_id, 0, 0);
				btf__add_field(btf, "node", node, 64, 0);
			}
			val = btf__add_struct(btf, "val", vsz);
			btf__add_field(btf, "f", tag, 0, 0);
			if (fields[i].node) {
				btf__add_field(btf, "lock", lock, off * 8, 0);
				btf__add_decl_tag(btf, "contains:elem:node", val, 0);
			}
			btf__add_field(btf, "x", long_id, (vsz - 8) * 8, 0);
			fd = btf_tag_load(btf, attr * BTF_FLAG_TYPE_TAG_ATTR, log, sizeof(log));
			if (!ASSERT_GE(fd, 0, fields[i].name)) {
				printf("log: %s\n", log);
				btf__free(btf);
				continue;
			}
			memset(in, 0xa5, sizeof(in));
			memset(out, 0, sizeof(out));
			if (ASSERT_OK(btf_tag_map_roundtrip(fd, int_id, val, vsz, in, out, 0),
				      fields[i].name)) {
				/* A special field is not stored: it reads back as
				 * zero, or as the kernel initialized it (a refcount
				 * of 1, a list head pointing to itself).
				 */
				ASSERT_NEQ(out[0], 0xa5, fields[i].name);
				ASSERT_EQ(out[vsz - 1], 0xa5, "plain member kept");
			}
			close(fd);
			btf__free(btf);
		}
	}
}

/* A graph root whose node member in the element type is behind a type
 * tag ("contains:elem:node" names it), in both conventions: in a map
 * value, where the root is a special field, and in a struct that is not
 * a map value, as a bpf_obj_new() object holds it.  The BTF loads.
 */
static void test_graph_node_behind_tag(void)
{
	static const struct {
		const char *root, *node;
		int node_size;
	} graphs[] = {
		{ "bpf_list_head", "bpf_list_node", 24 },
		{ "bpf_rb_root", "bpf_rb_node", 32 },
	};
	int g, in_map, attr, fd, int_id, long_id, lock, root, node, tag, val, err;
	__u8 in[32], out[32];
	char log[4096], name[64];
	struct btf *btf;

	for (g = 0; g < ARRAY_SIZE(graphs); g++) {
		for (in_map = 0; in_map < 2; in_map++) {
			for (attr = 0; attr < 2; attr++) {
				snprintf(name, sizeof(name), "%s %s %s", graphs[g].node,
					 in_map ? "map" : "obj", conv_str[attr]);
				btf = btf__new_empty();
				if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
					return;
				int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
				long_id = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
				lock = btf__add_struct(btf, "bpf_spin_lock", 4);
				btf__add_field(btf, "val", int_id, 0, 0);
				root = btf__add_struct(btf, graphs[g].root, 16);
				btf__add_field(btf, "a", long_id, 0, 0);
				node = btf__add_struct(btf, graphs[g].node, graphs[g].node_size);
				btf__add_field(btf, "a", long_id, 0, 0);
				tag = btf__add_type_tag(btf, "foo", node);
				btf__add_struct(btf, "elem", 8 + graphs[g].node_size);
				btf__add_field(btf, "v", long_id, 0, 0);
				btf__add_field(btf, "node", tag, 64, 0);
				val = btf__add_struct(btf, in_map ? "val" : "root_obj", 32);
				btf__add_field(btf, "lock", lock, 0, 0);
				btf__add_field(btf, "head", root, 64, 0);
				btf__add_field(btf, "x", long_id, 192, 0);
				btf__add_decl_tag(btf, "contains:elem:node", val, 1);
				fd = btf_tag_load(btf, attr * BTF_FLAG_TYPE_TAG_ATTR, log,
						  sizeof(log));
				if (!ASSERT_GE(fd, 0, name)) {
					printf("log: %s\n", log);
					btf__free(btf);
					continue;
				}
				memset(in, 0xa5, sizeof(in));
				memset(out, 0, sizeof(out));
				err = in_map ? btf_tag_map_roundtrip(fd, int_id, val, sizeof(in),
								     in, out, 0) : 0;
				if (in_map && ASSERT_OK(err, name)) {
					/* The root is not stored, the plain member is. */
					ASSERT_NEQ(out[8], 0xa5, "root");
					ASSERT_EQ(out[31], 0xa5, "plain member kept");
				}
				close(fd);
				btf__free(btf);
			}
		}
	}
}

/* A kptr to a forward declaration of a struct that the same BTF defines,
 * after the FWD, and that no kernel BTF has: the FWD is the program's own
 * struct, a kptr to a bpf_obj_new() object, in both conventions.
 */
static void test_fwd_local_struct(void)
{
	int attr, int_id, long_id, fwd, f, val;
	enum btf_tag_expect got;
	char log[4096];
	struct btf *btf;

	for (attr = 0; attr < 2; attr++) {
		btf = btf__new_empty();
		if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
			return;
		int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
		long_id = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
		fwd = btf__add_fwd(btf, "btf_tag_conv_local", BTF_FWD_STRUCT);
		f = attr ? btf__add_type_tag(btf, "kptr", btf__add_ptr(btf, fwd)) :
			   btf__add_ptr(btf, btf__add_type_tag(btf, "kptr", fwd));
		val = btf__add_struct(btf, "val", 16);
		btf__add_field(btf, "f", f, 0, 0);
		btf__add_field(btf, "x", long_id, 64, 0);
		btf__add_struct(btf, "btf_tag_conv_local", 8);
		btf__add_field(btf, "a", long_id, 0, 0);
		ASSERT_GT(int_id, 0, "int");
		got = btf_tag_verdict(btf, attr * BTF_FLAG_TYPE_TAG_ATTR, val, log, sizeof(log));
		if (!ASSERT_STREQ(btf_tag_expect_str[got], btf_tag_expect_str[SPECIAL],
				  conv_str[attr]))
			printf("log: %s\n", log);
		btf__free(btf);
	}
}

/* A bitfield that does not start a byte next to a spin lock. */
static void test_bitfield_spin_lock(void)
{
	int fd, int_id, lock, val;
	__u32 in[2] = { ~0U, 1 }, out[2] = {};
	char log[4096];
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
	fd = btf_tag_load(btf, 0, log, sizeof(log));
	if (!ASSERT_GE(fd, 0, "load"))
		goto out;
	/* BPF_F_LOCK needs the spin lock to be found. */
	if (ASSERT_OK(btf_tag_map_roundtrip(fd, int_id, val, sizeof(in), in, out, BPF_F_LOCK),
		      "map")) {
		ASSERT_EQ(out[0], 0, "lock zeroed");
		ASSERT_EQ(out[1], 1, "bitfields kept");
	}
	close(fd);
out:
	btf__free(btf);
}

static void test_unknown_flag(void)
{
	char log[4096];
	struct btf *btf;
	int fd;

	btf = btf__new_empty();
	if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
		return;
	btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	fd = btf_tag_load(btf, BTF_FLAG_TYPE_TAG_ATTR << 1, log, sizeof(log));
	ASSERT_LT(fd, 0, "load");
	ASSERT_HAS_SUBSTR(log, "Unsupported flags", "log");
	if (fd >= 0)
		close(fd);
	btf__free(btf);
}

/* Load a socket filter whose main function calls the global function
 * @sub_id with its context (@ctx) or 0 as the argument.
 */
static int load_target(int btf_fd, int main_id, int sub_id, bool ctx)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .prog_btf_fd = btf_fd, .log_level = 1);
	struct bpf_insn insns[] = {
		ctx ? BPF_MOV64_REG(BPF_REG_1, BPF_REG_1) : BPF_MOV64_IMM(BPF_REG_1, 0),
		BPF_RAW_INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 1),
		BPF_EXIT_INSN(),
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	struct bpf_func_info fi[] = { { 0, main_id }, { 3, sub_id } };
	char log[4096];
	int fd;

	opts.func_info = fi;
	opts.func_info_rec_size = sizeof(fi[0]);
	opts.func_info_cnt = ARRAY_SIZE(fi);
	opts.log_buf = log;
	opts.log_size = sizeof(log);

	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "tag_target", "GPL", insns,
			   ARRAY_SIZE(insns), &opts);
	if (!ASSERT_GE(fd, 0, "target"))
		printf("log: %s\n", log);
	return fd;
}

/* A global function whose argument is a tagged scalar or a tagged pointer
 * to the context (S is struct __sk_buff here) is verified as without the
 * tags, in both conventions.
 */
static void test_global_tagged_args(void)
{
	static const char * const chains[] = {
		"T:foo>I", "C>T:foo>I", "T:user>I", "A:foo>I", "D>T:foo>I", "T:foo>D>I",
		"P>T:foo>S", "P>C>T:foo>S", "D>P>T:foo>S",
	};
	int i, attr, btf_fd, fd, int_id, skb, arg, proto, main_id, sub_id;
	char log[4096];
	struct btf *btf;

	for (i = 0; i < ARRAY_SIZE(chains); i++) {
		for (attr = 0; attr < 2; attr++) {
			btf = btf__new_empty();
			if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
				return;
			int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
			skb = btf__add_struct(btf, "__sk_buff", 4);
			btf__add_field(btf, "len", int_id, 0, 0);
			arg = btf_tag_add_chain(btf, chains[i], skb, -1, -1, int_id);
			proto = btf__add_func_proto(btf, int_id);
			btf__add_func_param(btf, "ctx", btf__add_ptr(btf, skb));
			main_id = btf__add_func(btf, "main", BTF_FUNC_GLOBAL, proto);
			proto = btf__add_func_proto(btf, int_id);
			btf__add_func_param(btf, "a", arg);
			sub_id = btf__add_func(btf, "sub", BTF_FUNC_GLOBAL, proto);
			btf_fd = btf_tag_load(btf, attr * BTF_FLAG_TYPE_TAG_ATTR, log, sizeof(log));
			if (ASSERT_GE(btf_fd, 0, chains[i])) {
				fd = load_target(btf_fd, main_id, sub_id, strchr(chains[i], 'P'));
				ASSERT_GE(fd, 0, chains[i]);
				if (fd >= 0)
					close(fd);
				close(btf_fd);
			} else {
				printf("log: %s\n", log);
			}
			btf__free(btf);
		}
	}
}

/* Read, in a tc program, the member of a bpf_obj_new() object (@derefs 0),
 * what it points to (1), or what that points to (2): btf_struct_walk()
 * types the member from the program's BTF.  The object is
 * struct node { <chain> p; }, with long as I and struct leaf { long a; }
 * as S.  Returns the program fd or -errno, with the verifier log in @log.
 */
static int load_obj_reader(const char *chain, bool attr, int derefs, char *log,
			   size_t log_sz)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_level = 1);
	int btf_fd, fd, int_id, long_id, skb, node, proto, main_id, p, new_id, drop_id, leaf;
	struct bpf_func_info fi = {};
	struct btf *btf, *vmlinux;
	char blog[4096];

	vmlinux = btf__load_vmlinux_btf();
	if (!ASSERT_OK_PTR(vmlinux, "vmlinux"))
		return -ENOENT;
	new_id = btf__find_by_name_kind(vmlinux, "bpf_obj_new_impl", BTF_KIND_FUNC);
	drop_id = btf__find_by_name_kind(vmlinux, "bpf_obj_drop_impl", BTF_KIND_FUNC);
	btf__free(vmlinux);
	if (!ASSERT_GT(new_id, 0, "bpf_obj_new_impl") ||
	    !ASSERT_GT(drop_id, 0, "bpf_obj_drop_impl"))
		return -ENOENT;

	btf = btf__new_empty();
	if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
		return -ENOMEM;
	int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	long_id = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	skb = btf__add_struct(btf, "__sk_buff", 4);
	btf__add_field(btf, "len", int_id, 0, 0);
	leaf = btf__add_struct(btf, "leaf", 8);
	btf__add_field(btf, "a", long_id, 0, 0);
	p = btf_tag_add_chain(btf, chain, leaf, -1, -1, long_id);
	node = btf__add_struct(btf, "node", 8);
	btf__add_field(btf, "p", p, 0, 0);
	proto = btf__add_func_proto(btf, int_id);
	btf__add_func_param(btf, "ctx", btf__add_ptr(btf, skb));
	main_id = btf__add_func(btf, "main", BTF_FUNC_GLOBAL, proto);
	btf_fd = btf_tag_load(btf, attr * BTF_FLAG_TYPE_TAG_ATTR, blog, sizeof(blog));
	btf__free(btf);
	if (btf_fd < 0) {
		snprintf(log, log_sz, "%s", blog);
		return btf_fd;
	}
	{
		struct bpf_insn insns[16];
		int n = 0, i;

		insns[n++] = BPF_MOV64_IMM(BPF_REG_1, node);
		insns[n++] = BPF_MOV64_IMM(BPF_REG_2, 0);
		insns[n++] = BPF_RAW_INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0,
					  new_id);
		/* if (!r0) goto exit */
		insns[n++] = BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 5 + 2 * derefs);
		insns[n++] = BPF_MOV64_REG(BPF_REG_6, BPF_REG_0);
		insns[n++] = BPF_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_6, 0);
		/* r1 = *r1, @derefs times, each after a NULL check */
		for (i = 0; i < derefs; i++) {
			insns[n++] = BPF_JMP_IMM(BPF_JEQ, BPF_REG_1, 0, 2 * (derefs - i) - 1);
			insns[n++] = BPF_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_1, 0);
		}
		insns[n++] = BPF_MOV64_REG(BPF_REG_1, BPF_REG_6);
		insns[n++] = BPF_MOV64_IMM(BPF_REG_2, 0);
		insns[n++] = BPF_RAW_INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0,
					  drop_id);
		insns[n++] = BPF_MOV64_IMM(BPF_REG_0, 0);
		insns[n++] = BPF_EXIT_INSN();

		fi.type_id = main_id;
		opts.prog_btf_fd = btf_fd;
		opts.func_info = &fi;
		opts.func_info_rec_size = sizeof(fi);
		opts.func_info_cnt = 1;
		opts.log_buf = log;
		opts.log_size = log_sz;
		log[0] = 0;
		fd = bpf_prog_load(BPF_PROG_TYPE_SCHED_CLS, "tag_reader", "GPL", insns,
				   n, &opts);
		fd = fd < 0 ? -errno : fd;
	}
	close(btf_fd);
	return fd;
}

struct reader_case {
	const char *chain;
	bool ok;	/* the program loads */
};

/* Load the reader of each case (load_obj_reader(), @derefs) in both
 * conventions.  With the flag, a memory tag in front of the PTR makes the
 * BTF fail to load; otherwise the program loads if the case is ok, and
 * else fails with @msg in its log.
 */
static void run_reader_cases(const struct reader_case *cases, int n, int derefs,
			     const char *msg)
{
	char log[8192], name[64];
	int i, attr, fd;

	for (i = 0; i < n; i++) {
		for (attr = 0; attr < 2; attr++) {
			snprintf(name, sizeof(name), "%s %s", cases[i].chain, conv_str[attr]);
			fd = load_obj_reader(cases[i].chain, attr, derefs, log, sizeof(log));
			if (fd == -ENOENT || fd == -ENOMEM)
				return;
			if (attr && cases[i].chain[0] != 'P') {
				ASSERT_LT(fd, 0, name);
				ASSERT_HAS_SUBSTR(log, NOT_MEM, name);
			} else if (cases[i].ok) {
				if (!ASSERT_GE(fd, 0, name))
					printf("log: %s\n", log);
			} else {
				ASSERT_LT(fd, 0, name);
				ASSERT_HAS_SUBSTR(log, msg, name);
			}
			if (fd >= 0)
				close(fd);
		}
	}
}

/* No shape makes user or per-CPU memory readable as kernel memory.  A
 * "user" or "percpu" tag in front of the PTR (Clang 23's typedef shape
 * TYPEDEF -> TYPE_TAG -> PTR, or a producer's TAG -> PTR) is the memory's
 * tag without the flag, and refused at BTF load with it.  Linux 7.2.13 and
 * the series before the classifier ignored it: the member was read as
 * untrusted kernel memory and the program loaded.
 */
static void test_front_mem_tags(void)
{
	static const struct reader_case cases[] = {
		{ "P>I", true },
		{ "P>T:user>I", false },
		{ "P>T:percpu>I", false },
		{ "T:user>P>I", false },
		{ "T:percpu>P>I", false },
		{ "D>T:user>P>I", false },
		{ "C>T:user>P>I", false },
		{ "T:foo>T:percpu>C>P>I", false },
		{ "T:rcu>P>I", true },
	};

	run_reader_cases(cases, ARRAY_SIZE(cases), 1, "invalid mem access 'scalar'");
}

/* btf.rst's row for pointers to pointers: GCC 16 emits "long __user **pp"
 * as PTR -> TAG(user) -> PTR -> long, one level higher than Clang
 * (PTR -> PTR -> TAG(user) -> long).  Neither shape gives a program access
 * to the user memory: reading through both pointers is rejected, as it is
 * without any tag, in both conventions.
 */
static void test_ptr_ptr_tags(void)
{
	static const struct reader_case cases[] = {
		{ "P>P>I" }, { "P>T:user>P>I" }, { "P>P>T:user>I" }, { "P>T:percpu>P>I" },
		{ "P>P>T:percpu>I" },
	};

	run_reader_cases(cases, ARRAY_SIZE(cases), 2, "invalid mem access 'scalar'");
}

/* A memory tag in front of the PTR next to another one after it, without
 * the flag: the most restrictive applies (user, then percpu, then rcu),
 * and loading the member works, as on Linux 7.2.13 (which ignored the
 * front tag).  A plain two-tag chain after the PTR stays an error.  With
 * the flag, the BTF is refused.
 */
static void test_mixed_mem_tags(void)
{
	static const struct reader_case cases[] = {
		{ "T:percpu>P>T:rcu>S", true },
		{ "T:user>P>T:percpu>S", true },
		{ "T:user>P>T:rcu>S", true },
		{ "P>T:user>T:rcu>S", false },
	};

	run_reader_cases(cases, ARRAY_SIZE(cases), 0, "has multiple type tags");
}

/* A spin lock behind a run of @n type tags, in BTF whose only tags are
 * those: attributes (kind_flag 1, BTF without any kind_flag=0 tag) or
 * kind_flag=0 tags.  Up to 32 tags it is a spin lock; behind more it is
 * data, as on Linux 7.2.13, in both kinds of BTF.
 */
static void test_special_behind_long_run(void)
{
	static const int lens[] = { 1, 32, 33, 40 };
	int i, attr, kflag, j, fd, int_id, long_id, lock, id, val;
	char log[4096], name[64];
	enum btf_tag_expect got;
	struct btf *btf;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		for (kflag = 0; kflag < 2; kflag++) {
			for (attr = 0; attr < 2; attr++) {
				btf = btf__new_empty();
				if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
					return;
				int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
				long_id = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
				lock = btf__add_struct(btf, "bpf_spin_lock", 4);
				btf__add_field(btf, "val", int_id, 0, 0);
				id = lock;
				for (j = 0; j < lens[i]; j++)
					id = kflag ? btf__add_type_attr(btf, "foo", id) :
						     btf__add_type_tag(btf, "foo", id);
				val = btf__add_struct(btf, "val", 16);
				btf__add_field(btf, "l", id, 0, 0);
				btf__add_field(btf, "x", long_id, 64, 0);
				snprintf(name, sizeof(name), "%d %s %s", lens[i],
					 kflag ? "attributes" : "tags", conv_str[attr]);
				fd = btf_tag_load(btf, attr * BTF_FLAG_TYPE_TAG_ATTR, log,
						  sizeof(log));
				if (lens[i] > 32 && attr) {
					/* With the flag, a run over 32 is refused */
					ASSERT_EQ(fd, -ELOOP, name);
				} else if (ASSERT_GE(fd, 0, name)) {
					got = btf_tag_probe_map(fd, val);
					ASSERT_EQ(got, lens[i] <= 32 ? SPECIAL : DATA, name);
				}
				if (fd >= 0)
					close(fd);
				btf__free(btf);
			}
		}
	}
}

/* Runs of modifiers, typedefs and type tags (CONST, TYPEDEF, TYPE_TAG in
 * turn, each pointing to a lower id, as compilers write them) of @len in
 * front of an int.  With the flag, at most BTF_TAG_CHAIN_MAX (32): longer
 * gives -ELOOP and a log line naming the type.  Without it, nothing that
 * Linux 7.2.13 loads is refused: the same runs load, with a log line.
 * 7.2.13 and the series before the classifier load all of them.
 */
static void test_chain_cap(void)
{
	static const int lens[] = { 32, 33, 40, 200 };
	static char log[65536];
	int i, j, attr, id, fd, first;
	char want[96], name[32];
	struct btf *btf;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		for (attr = 0; attr < 2; attr++) {
			btf = btf__new_empty();
			if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
				return;
			id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
			first = 0;
			for (j = 0; j < lens[i]; j++) {
				id = j % 3 == 0 ? btf__add_const(btf, id) :
				     j % 3 == 1 ? btf__add_typedef(btf, "td_t", id) :
						  btf__add_type_tag(btf, "foo", id);
				/* The first type with a run over 32 */
				if (j == 32)
					first = id;
			}
			btf__add_var(btf, "v", BTF_VAR_GLOBAL_ALLOCATED, id);
			fd = btf_tag_load(btf, attr * BTF_FLAG_TYPE_TAG_ATTR, log, sizeof(log));
			snprintf(name, sizeof(name), "%d %s", lens[i], conv_str[attr]);
			snprintf(want, sizeof(want),
				 "type_id=%d chain of more than 32 modifiers", first);
			if (lens[i] <= 32) {
				ASSERT_GE(fd, 0, name);
				ASSERT_NULL(strstr(log, "chain of more than"), name);
			} else if (attr) {
				ASSERT_EQ(fd, -ELOOP, name);
				ASSERT_HAS_SUBSTR(log, want, name);
			} else {
				ASSERT_GE(fd, 0, name);
				ASSERT_HAS_SUBSTR(log, want, name);
			}
			if (fd >= 0)
				close(fd);
			btf__free(btf);
		}
	}
}

/* The types of a value with a kptr to a kernel struct without a
 * destructor kfunc next to a spin lock: int, long, struct file (in
 * vmlinux) and struct bpf_spin_lock, in that order.
 */
struct file_lock_ids {
	int int_id, long_id, file, lock;
};

static struct btf *btf_file_lock(struct file_lock_ids *ids)
{
	struct btf *btf = btf__new_empty();

	if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
		return NULL;
	ids->int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	ids->long_id = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	ids->file = btf__add_struct(btf, "file", 8);
	btf__add_field(btf, "a", ids->long_id, 0, 0);
	ids->lock = btf__add_struct(btf, "bpf_spin_lock", 4);
	btf__add_field(btf, "val", ids->int_id, 0, 0);
	return btf;
}

/* Kptrs that the legacy reading sees as data (behind a typedef, a CONST
 * or a type tag), to a kernel struct without a destructor (struct file),
 * in a struct that is not a map value, alone or next to a spin lock.
 * Without the flag the BTF loads, as it always did, and the BTF log names
 * member 'f'.
 */
static void test_legacy_kptr_no_dtor(void)
{
	static const char * const chains[] = {
		"D>P>T:kptr>S", "C>P>T:kptr>S", "T:kptr>P>S",
	};
	int i, with_lock, fd, f, holder;
	struct file_lock_ids t;
	char log[4096];
	struct btf *btf;

	for (i = 0; i < ARRAY_SIZE(chains); i++) {
		for (with_lock = 0; with_lock < 2; with_lock++) {
			btf = btf_file_lock(&t);
			if (!btf)
				return;
			f = btf_tag_add_chain(btf, chains[i], t.file, t.lock, -1, t.int_id);
			holder = btf__add_struct(btf, "holder", 16);
			btf__add_field(btf, "f", f, 0, 0);
			if (with_lock)
				btf__add_field(btf, "lock", t.lock, 64, 0);
			else
				btf__add_field(btf, "x", t.long_id, 64, 0);
			ASSERT_GT(holder, 0, "holder");
			fd = btf_tag_load(btf, 0, log, sizeof(log));
			if (ASSERT_GE(fd, 0, chains[i])) {
				ASSERT_HAS_SUBSTR(log, "member 'f'", "log");
				close(fd);
			} else {
				printf("log: %s\n", log);
			}
			btf__free(btf);
		}
	}
}

/* Two tagged spin locks, struct { struct bpf_spin_lock __tag a, b; }.
 * Without the flag the BTF loads as it always did, the map has no spin
 * lock (BPF_F_LOCK: -EINVAL) and the log names 'a' and 'b'.  With the
 * flag, two spin locks are -E2BIG.
 */
static void test_legacy_tagged_locks(void)
{
	int attr, fd, mfd, int_id, lock, tag, val, key = 0;
	char log[4096], mlog[1024];
	__u32 v[2] = {};
	struct btf *btf;

	for (attr = 0; attr < 2; attr++) {
		btf = btf__new_empty();
		if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
			return;
		int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
		lock = btf__add_struct(btf, "bpf_spin_lock", 4);
		btf__add_field(btf, "val", int_id, 0, 0);
		tag = btf__add_type_tag(btf, "foo", lock);
		val = btf__add_struct(btf, "val", 8);
		btf__add_field(btf, "a", tag, 0, 0);
		btf__add_field(btf, "b", tag, 32, 0);
		fd = btf_tag_load(btf, attr * BTF_FLAG_TYPE_TAG_ATTR, log, sizeof(log));
		if (attr) {
			ASSERT_EQ(fd, -E2BIG, "attr");
		} else if (ASSERT_GE(fd, 0, "pointee")) {
			ASSERT_HAS_SUBSTR(log, "member 'a'", "log a");
			ASSERT_HAS_SUBSTR(log, "member 'b'", "log b");
			mfd = btf_tag_map_create(fd, int_id, val, sizeof(v), 0, mlog, sizeof(mlog));
			if (ASSERT_GE(mfd, 0, "map")) {
				ASSERT_EQ(bpf_map_update_elem(mfd, &key, v, BPF_F_LOCK), -EINVAL,
					  "no lock, as before");
				close(mfd);
			}
		}
		if (fd >= 0)
			close(fd);
		btf__free(btf);
	}
}

/* Arrays of fields that cannot be repeated, in a map value:
 * struct val { struct bpf_timer t[2]; long x; } (and bpf_wq,
 * bpf_res_spin_lock); btf_repeat_fields() refuses them.  Without the
 * flag the map is created, the array is plain data as it always was, and
 * the map-create log names 't'.  With the flag, map creation fails with
 * -EINVAL and the log names 't'.
 */
static void test_legacy_field_array(void)
{
	static const struct {
		const char *name;
		int size;
	} fields[] = {
		{ "bpf_timer", 16 }, { "bpf_wq", 16 }, { "bpf_res_spin_lock", 4 },
	};
	int i, attr, fd, mfd, int_id, long_id, st, arr, val, vsz, key = 0;
	char log[4096], mlog[1024];
	__u8 in[48], out[48];
	struct btf *btf;

	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		for (attr = 0; attr < 2; attr++) {
			btf = btf__new_empty();
			if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
				return;
			vsz = (2 * fields[i].size + 7) / 8 * 8 + 8;
			int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
			long_id = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
			st = btf__add_struct(btf, fields[i].name, fields[i].size);
			btf__add_field(btf, "a", int_id, 0, 0);
			arr = btf__add_array(btf, int_id, st, 2);
			val = btf__add_struct(btf, "val", vsz);
			btf__add_field(btf, "t", arr, 0, 0);
			btf__add_field(btf, "x", long_id, (vsz - 8) * 8, 0);
			fd = btf_tag_load(btf, attr * BTF_FLAG_TYPE_TAG_ATTR, log, sizeof(log));
			if (!ASSERT_GE(fd, 0, "load")) {
				btf__free(btf);
				continue;
			}
			mfd = btf_tag_map_create(fd, int_id, val, vsz, 0, mlog, sizeof(mlog));
			ASSERT_HAS_SUBSTR(mlog, "member 't'", fields[i].name);
			if (attr) {
				ASSERT_EQ(mfd, -EINVAL, fields[i].name);
			} else if (ASSERT_GE(mfd, 0, fields[i].name)) {
				memset(in, 0xa5, sizeof(in));
				memset(out, 0, sizeof(out));
				ASSERT_OK(bpf_map_update_elem(mfd, &key, in, 0), "update");
				ASSERT_OK(bpf_map_lookup_elem(mfd, &key, out), "lookup");
				ASSERT_EQ(out[0], 0xa5, "plain data, as before");
			}
			if (mfd >= 0)
				close(mfd);
			close(fd);
			btf__free(btf);
		}
	}
}

/* Load @btf with the header flag if @attr, make an mmap-able array map of
 * its .bss DATASEC @sec (@sz bytes), with the map-create log in @mlog, and
 * mmap() it.  Returns 1 if mmap() works, 0 if it fails, -1 if the BTF or the
 * map could not be made.  Frees @btf.
 */
static int bss_mmap(struct btf *btf, int attr, int sec, __u32 sz, char *mlog, size_t mlog_sz)
{
	int fd, mfd, ret = -1;
	char log[4096];
	void *mem;

	fd = btf_tag_load(btf, attr * BTF_FLAG_TYPE_TAG_ATTR, log, sizeof(log));
	btf__free(btf);
	if (!ASSERT_GE(fd, 0, "load")) {
		printf("log: %s\n", log);
		return -1;
	}
	mfd = btf_tag_map_create(fd, 0, sec, sz, BPF_F_MMAPABLE, mlog, mlog_sz);
	if (ASSERT_GE(mfd, 0, "map")) {
		mem = mmap(NULL, getpagesize(), PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
		ret = mem != MAP_FAILED;
		if (ret)
			munmap(mem, getpagesize());
		close(mfd);
	}
	close(fd);
	return ret;
}

/* A .bss holding a typedef kptr in an mmap-able array map:
 *   typedef struct task_struct __kptr *kp_t; kp_t p;
 * Without the flag, mmap() works as it always did (the typedef is data in
 * the legacy reading) and the map-create log names 'p'.  With the flag
 * (D>T:kptr>P>S) the kptr is kept and mmap() fails.
 */
static void test_legacy_bss_kptr(void)
{
	int attr, long_id, ts, p, var, sec, ret;
	char mlog[1024];
	struct btf *btf;

	for (attr = 0; attr < 2; attr++) {
		btf = btf__new_empty();
		if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
			return;
		btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
		long_id = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
		ts = btf__add_struct(btf, "task_struct", 8);
		btf__add_field(btf, "a", long_id, 0, 0);
		p = btf_tag_add_chain(btf, attr ? "D>T:kptr>P>S" : "D>P>T:kptr>S", ts, -1, -1, 1);
		var = btf__add_var(btf, "p", BTF_VAR_GLOBAL_ALLOCATED, p);
		sec = btf__add_datasec(btf, ".bss", 8);
		btf__add_datasec_var_info(btf, var, 0, 8);
		ret = bss_mmap(btf, attr, sec, 8, mlog, sizeof(mlog));
		if (ret < 0)
			continue;
		if (attr) {
			ASSERT_EQ(ret, 0, "kptr kept");
		} else {
			ASSERT_EQ(ret, 1, "mmap as before");
			ASSERT_HAS_SUBSTR(mlog, "variable 'p'", "log");
		}
	}
}

/* A .bss holding a struct with a timer and then bitfields that do not start
 * a byte, in an mmap-able array map:
 *   struct holder { struct bpf_timer t; int a:3, b:5; } g;
 * 7.2.13 fails on the bitfield and makes the map without fields, so mmap()
 * works.  The new reading skips the bitfield and finds the timer; without
 * the flag the legacy reading still fails on the bitfield, so the map is
 * mmap-able as before.  With the flag the timer is kept and mmap() fails.
 */
static void test_legacy_bss_timer_bitfield(void)
{
	int attr, int_id, long_id, timer, holder, var, sec, ret;
	char mlog[1024];
	struct btf *btf;

	for (attr = 0; attr < 2; attr++) {
		btf = btf__new_empty();
		if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
			return;
		int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
		long_id = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
		timer = btf__add_struct(btf, "bpf_timer", 16);
		btf__add_field(btf, "a", long_id, 0, 0);
		btf__add_field(btf, "b", long_id, 64, 0);
		holder = btf__add_struct(btf, "holder", 24);
		btf__add_field(btf, "t", timer, 0, 0);
		btf__add_field(btf, "a", int_id, 128, 3);
		btf__add_field(btf, "b", int_id, 131, 5);
		var = btf__add_var(btf, "g", BTF_VAR_GLOBAL_ALLOCATED, holder);
		sec = btf__add_datasec(btf, ".bss", 24);
		btf__add_datasec_var_info(btf, var, 0, 24);
		ret = bss_mmap(btf, attr, sec, 24, mlog, sizeof(mlog));
		if (ret >= 0)
			ASSERT_EQ(ret, !attr, attr ? "timer kept" : "mmap as before");
	}
}

/* Refusals of a value's special fields say why: a list head without its
 * "contains" tag fails the BTF load, a uptr fails an array map.  Both
 * failed with nothing but the type dump in the log before.
 */
static void test_refusals_logged(void)
{
	char log[8192];
	int id, head, val, fd;
	struct btf *btf;

	btf = btf__new_empty();
	if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
		return;
	id = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	head = btf__add_struct(btf, "bpf_list_head", 16);
	btf__add_field(btf, "a", id, 0, 0);
	val = btf__add_struct(btf, "val", 16);
	btf__add_field(btf, "h", head, 0, 0);
	fd = btf_tag_load(btf, 0, log, sizeof(log));
	if (!ASSERT_LT(fd, 0, "list head without contains"))
		close(fd);
	ASSERT_HAS_SUBSTR(log, "struct 'val': special fields fail the load", "load log");
	btf__free(btf);

	btf = btf__new_empty();
	if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
		return;
	val = btf_tag_build(btf, "P>T:uptr>S", false);
	fd = btf_tag_load(btf, 0, log, sizeof(log));
	if (ASSERT_GE(fd, 0, "load")) {
		ASSERT_EQ(btf_tag_map_create(fd, 1, val, 16, 0, log, sizeof(log)), -EOPNOTSUPP,
			  "uptr in an array");
		ASSERT_HAS_SUBSTR(log, "special fields fail the creation of this map", "map log");
		close(fd);
	}
	btf__free(btf);
}

/* struct val { struct bpf_timer a; struct bpf_timer b; }: a value may
 * have one timer (-E2BIG).  Without the flag the map is created without
 * special fields, as 7.2 creates it, and the log says so; with the flag
 * map creation fails.  Before, it was created without fields either way,
 * with an empty log.
 */
/* struct val { struct bpf_timer a; struct bpf_timer b; } (32 bytes), its
 * timer built of @long_id; returns val's id.
 */
static int add_two_timers(struct btf *btf, int long_id)
{
	int timer, val;

	timer = btf__add_struct(btf, "bpf_timer", 16);
	btf__add_field(btf, "a", long_id, 0, 0);
	btf__add_field(btf, "b", long_id, 64, 0);
	val = btf__add_struct(btf, "val", 32);
	btf__add_field(btf, "a", timer, 0, 0);
	btf__add_field(btf, "b", timer, 128, 0);
	return val;
}

static void test_attr_duplicate_fields(void)
{
	int attr, fd, mfd, id, int_id, val;
	char log[4096], mlog[1024];
	struct btf *btf;

	for (attr = 0; attr < 2; attr++) {
		btf = btf__new_empty();
		if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
			return;
		int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
		id = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
		val = add_two_timers(btf, id);
		fd = btf_tag_load(btf, attr * BTF_FLAG_TYPE_TAG_ATTR, log, sizeof(log));
		if (!ASSERT_GE(fd, 0, "load")) {
			btf__free(btf);
			continue;
		}
		mfd = btf_tag_map_create(fd, int_id, val, 32, 0, mlog, sizeof(mlog));
		if (attr) {
			ASSERT_EQ(mfd, -E2BIG, "two timers with the flag");
			ASSERT_HAS_SUBSTR(mlog, "fail the creation of this map (-7)", "log");
		} else {
			ASSERT_GE(mfd, 0, "two timers without the flag");
			ASSERT_HAS_SUBSTR(mlog, "special fields are ignored, the map has none (-7)",
					  "log");
		}
		if (mfd >= 0)
			close(mfd);
		close(fd);
		btf__free(btf);
	}
}

/* struct val { struct bpf_res_spin_lock __tag(foo) a; struct
 * bpf_res_spin_lock b; }, where the struct is 8 bytes, not a lock's 4:
 * reading through the tag counts two locks (-E2BIG) before their size
 * is checked, the legacy reading one, which it then ignores.  Without
 * the flag the map is created and the log says why, as it says for
 * members it names; the log was empty before.
 */
static void test_fields_fail_together(void)
{
	int fd, mfd, id, int_id, lock, tag, val;
	char log[4096], mlog[1024];
	struct btf *btf;

	btf = btf__new_empty();
	if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
		return;
	int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	id = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	lock = btf__add_struct(btf, "bpf_res_spin_lock", 8);
	btf__add_field(btf, "v", id, 0, 0);
	tag = btf__add_type_tag(btf, "foo", lock);
	val = btf__add_struct(btf, "val", 16);
	btf__add_field(btf, "a", tag, 0, 0);
	btf__add_field(btf, "b", lock, 64, 0);
	fd = btf_tag_load(btf, 0, log, sizeof(log));
	if (ASSERT_GE(fd, 0, "load")) {
		mfd = btf_tag_map_create(fd, int_id, val, 16, 0, mlog, sizeof(mlog));
		if (ASSERT_GE(mfd, 0, "map without the flag"))
			close(mfd);
		ASSERT_HAS_SUBSTR(mlog, "struct 'val': its special fields fail together",
				  "map log");
		close(fd);
	}
	btf__free(btf);
}

/* Without the flag a map is created whatever the size of its map-create
 * log, as before: a plain value, a struct without special fields and a
 * struct whose two timers are ignored, each with no log, a 1-byte and a
 * 32-byte log.  A note that does not fit the log is not written, so it
 * cannot turn into -ENOSPC, and a plain value, which has no fields to
 * ignore, gets no note at all.
 */
static void test_small_map_log(void)
{
	int fd, mfd, id, int_id, plain, val, i, j;
	const size_t sizes[] = { 0, 1, 32 };
	char log[4096], mlog[1024], name[64];
	struct {
		const char *name;
		int *type;
		__u32 size;
	} vals[] = {
		{ "u64", &id, 8 },
		{ "struct_no_fields", &plain, 8 },
		{ "two_timers", &val, 32 },
	};
	struct btf *btf;

	btf = btf__new_empty();
	if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
		return;
	int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	id = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	plain = btf__add_struct(btf, "plain", 8);
	btf__add_field(btf, "a", id, 0, 0);
	val = add_two_timers(btf, id);
	fd = btf_tag_load(btf, 0, log, sizeof(log));
	if (!ASSERT_GE(fd, 0, "load"))
		goto out;
	for (i = 0; i < ARRAY_SIZE(vals); i++) {
		for (j = 0; j < ARRAY_SIZE(sizes); j++) {
			snprintf(name, sizeof(name), "%s, log of %zu bytes",
				 vals[i].name, sizes[j]);
			mfd = btf_tag_map_create(fd, int_id, *vals[i].type, vals[i].size, 0,
						 sizes[j] ? mlog : NULL, sizes[j]);
			if (ASSERT_GE(mfd, 0, name))
				close(mfd);
		}
	}
	mfd = btf_tag_map_create(fd, int_id, id, 8, 0, mlog, sizeof(mlog));
	if (ASSERT_GE(mfd, 0, "u64, large log"))
		close(mfd);
	ASSERT_STREQ(mlog, "", "u64: nothing ignored, nothing logged");
	close(fd);
out:
	btf__free(btf);
}

/* The graph root of a struct whose node struct the new reading refuses,
 * flag clear: A { bpf_spin_lock l; bpf_list_head TAG(foo) -> h; } with
 * "contains:B:node", B { bpf_list_node TAG(foo) -> node; fp_t f; }, fp_t a
 * typedef of a kptr to struct file (no destructor).  Linux 7.3 loads it
 * (both graph fields are data behind their tags); the series without a
 * fallback after the whole-table checks failed it with -EFAULT.
 */
static void test_graph_root_refused_node(void)
{
	int fd, head, node, tag, fp, b, a;
	struct file_lock_ids t;
	char log[8192];
	struct btf *btf;

	btf = btf_file_lock(&t);
	if (!btf)
		return;
	head = btf__add_struct(btf, "bpf_list_head", 16);
	btf__add_field(btf, "a", t.long_id, 0, 0);
	btf__add_field(btf, "b", t.long_id, 64, 0);
	node = btf__add_struct(btf, "bpf_list_node", 24);
	btf__add_field(btf, "a", t.long_id, 0, 0);
	fp = btf_tag_add_chain(btf, "D>P>T:kptr>S", t.file, t.lock, -1, t.int_id);
	tag = btf__add_type_tag(btf, "foo", node);
	b = btf__add_struct(btf, "B", 32);
	btf__add_field(btf, "node", tag, 0, 0);
	btf__add_field(btf, "f", fp, 192, 0);
	tag = btf__add_type_tag(btf, "foo", head);
	a = btf__add_struct(btf, "A", 24);
	btf__add_field(btf, "l", t.lock, 0, 0);
	btf__add_field(btf, "h", tag, 64, 0);
	btf__add_decl_tag(btf, "contains:B:node", a, 1);
	ASSERT_GT(b, 0, "B");
	fd = btf_tag_load(btf, 0, log, sizeof(log));
	if (!ASSERT_GE(fd, 0, "load"))
		printf("log: %s\n", log);
	else
		close(fd);
	btf__free(btf);
}

/* struct node { struct bpf_spin_lock l; <chain> next; } whose kptr points
 * to node itself, flag clear: as a plain "PTR -> TAG(kptr) -> node" it is
 * an ownership cycle (-ELOOP) on Linux 7.3 too; behind CONST or a TYPEDEF
 * Linux 7.3 reads it as data and loads it, and so must the series.
 */
static void test_self_kptr(void)
{
	static const struct {
		const char *chain;
		int ntypes;	/* types the chain adds */
		bool loads;
	} cases[] = {
		{ "P>T:kptr>S", 2, false },
		{ "C>P>T:kptr>S", 3, true },
		{ "D>P>T:kptr>S", 3, true },
	};
	int i, fd, int_id, lock, id, node, next;
	char log[8192];
	struct btf *btf;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		btf = btf__new_empty();
		if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
			return;
		int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
		lock = btf__add_struct(btf, "bpf_spin_lock", 4);
		btf__add_field(btf, "val", int_id, 0, 0);
		/* The chain points to node, which comes right after it. */
		node = btf__type_cnt(btf) + cases[i].ntypes;
		id = btf_tag_add_chain(btf, cases[i].chain, node, lock, -1, int_id);
		next = btf__add_struct(btf, "node", 16);
		btf__add_field(btf, "l", lock, 0, 0);
		btf__add_field(btf, "next", id, 64, 0);
		if (!ASSERT_EQ(next, node, cases[i].chain)) {
			btf__free(btf);
			continue;
		}
		fd = btf_tag_load(btf, 0, log, sizeof(log));
		if (cases[i].loads) {
			if (!ASSERT_GE(fd, 0, cases[i].chain))
				printf("log: %s\n", log);
		} else {
			ASSERT_EQ(fd, -ELOOP, cases[i].chain);
		}
		if (fd >= 0)
			close(fd);
		btf__free(btf);
	}
}

/* Where the first note of the series starts in a BTF load's log: the
 * lines before it are what Linux 7.3 writes too.
 */
static size_t btf_log_base_len(const char *log)
{
	static const char * const marks[] = {
		"member '", "variable '", "special field", "its special fields",
		"chain of more than",
	};
	const char *at = log + strlen(log), *p;
	int i;

	for (i = 0; i < ARRAY_SIZE(marks); i++) {
		p = strstr(log, marks[i]);
		if (p && p < at)
			at = p;
	}
	while (at > log && at[-1] != '\n')
		at--;
	return at - log;
}

/* Without the flag BTF loads whatever the size of its log, as before: BTF
 * whose typedef'd kptr to struct file (no destructor) is ignored next to
 * a spin lock, and BTF that the whole-table checks read the old way,
 * loaded with a log that holds just what Linux 7.3 writes, and with none.
 * A note that does not fit is left out: no -ENOSPC, and the log holds
 * exactly what Linux 7.3 writes there.
 */
static void test_small_btf_log(void)
{
	char log[8192], small[8192];
	struct file_lock_ids t;
	int fd, k, f, holder;
	const void *raw;
	__u32 raw_sz;
	struct btf *btf;
	size_t len;

	for (k = 0; k < 2; k++) {
		btf = btf_file_lock(&t);
		if (!btf)
			return;
		if (k == 0) {
			f = btf_tag_add_chain(btf, "D>P>T:kptr>S", t.file, t.lock, -1, t.int_id);
		} else {
			/* node's own const kptr, as in test_self_kptr() */
			holder = btf__type_cnt(btf) + 3;
			f = btf_tag_add_chain(btf, "C>P>T:kptr>S", holder, t.lock, -1, t.int_id);
		}
		holder = btf__add_struct(btf, "holder", 16);
		btf__add_field(btf, "f", f, 0, 0);
		btf__add_field(btf, "lock", t.lock, 64, 0);
		fd = btf_tag_load(btf, 0, log, sizeof(log));
		if (!ASSERT_GE(fd, 0, "load")) {
			printf("log: %s\n", log);
			btf__free(btf);
			continue;
		}
		close(fd);
		len = btf_log_base_len(log);
		fd = btf_tag_load(btf, 0, small, len + 1);
		if (!ASSERT_GE(fd, 0, k ? "cycle, small log" : "kptr, small log"))
			printf("small log (%zu bytes): %s\n", len + 1, small);
		else
			close(fd);
		/* The (rotating) log holds what it held without the notes. */
		log[len] = 0;
		ASSERT_STREQ(small, log, k ? "cycle, small log's text" : "kptr, small log's text");
		raw = btf__raw_data(btf, &raw_sz);
		fd = bpf_btf_load(raw, raw_sz, NULL);
		if (ASSERT_GE(fd, 0, k ? "cycle, no log" : "kptr, no log"))
			close(fd);
		btf__free(btf);
	}
}

void test_btf_tag_conv(void)
{
	char name[96];
	int i, attr;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		for (attr = 0; attr < 2; attr++) {
			snprintf(name, sizeof(name), "%s_%s", cases[i].name,
				 conv_str[attr]);
			if (test__start_subtest(name))
				run_case(&cases[i], attr);
		}
	}
	if (test__start_subtest("non_ptr_elsewhere"))
		test_non_ptr_elsewhere();
	if (test__start_subtest("tagged_key_value"))
		test_tagged_key_value();
	if (test__start_subtest("special_behind_tag"))
		test_special_behind_tag();
	if (test__start_subtest("graph_node_behind_tag"))
		test_graph_node_behind_tag();
	if (test__start_subtest("fwd_local_struct"))
		test_fwd_local_struct();
	if (test__start_subtest("legacy_kptr_no_dtor"))
		test_legacy_kptr_no_dtor();
	if (test__start_subtest("legacy_tagged_locks"))
		test_legacy_tagged_locks();
	if (test__start_subtest("legacy_field_array"))
		test_legacy_field_array();
	if (test__start_subtest("legacy_bss_kptr"))
		test_legacy_bss_kptr();
	if (test__start_subtest("legacy_bss_timer_bitfield"))
		test_legacy_bss_timer_bitfield();
	if (test__start_subtest("bitfield_spin_lock"))
		test_bitfield_spin_lock();
	if (test__start_subtest("unknown_flag"))
		test_unknown_flag();
	if (test__start_subtest("global_tagged_args"))
		test_global_tagged_args();
	if (test__start_subtest("front_mem_tags"))
		test_front_mem_tags();
	if (test__start_subtest("chain_cap"))
		test_chain_cap();
	if (test__start_subtest("ptr_ptr_tags"))
		test_ptr_ptr_tags();
	if (test__start_subtest("mixed_mem_tags"))
		test_mixed_mem_tags();
	if (test__start_subtest("refusals_logged"))
		test_refusals_logged();
	if (test__start_subtest("attr_duplicate_fields"))
		test_attr_duplicate_fields();
	if (test__start_subtest("fields_fail_together"))
		test_fields_fail_together();
	if (test__start_subtest("small_map_log"))
		test_small_map_log();
	if (test__start_subtest("graph_root_refused_node"))
		test_graph_root_refused_node();
	if (test__start_subtest("self_kptr"))
		test_self_kptr();
	if (test__start_subtest("small_btf_log"))
		test_small_btf_log();
	if (test__start_subtest("special_behind_long_run"))
		test_special_behind_long_run();
}
