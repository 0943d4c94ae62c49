// SPDX-License-Identifier: GPL-2.0
/* Type tag chains in both BTF type tag conventions, from raw BTF. */
#include <test_progs.h>
#include <bpf/btf.h>
#include <linux/btf.h>
#include <linux/filter.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "bpf/libbpf_internal.h"
#include "btf_tag_conv_kptr.skel.h"
#include "btf_tag_conv_user.skel.h"

#ifndef BTF_FLAG_TYPE_TAG_ATTR
#define BTF_FLAG_TYPE_TAG_ATTR 0x1
#endif

enum expect {
	DATA,		/* the member is plain data */
	SPECIAL,	/* the member is a kptr or a special field */
	LOAD_FAIL,	/* BPF_BTF_LOAD fails, the log has @msg */
	MAP_FAIL,	/* the map cannot be created */
};

struct tag_case {
	const char *name;
	/* The member's chain, outermost first, separated by '>':
	 *   T:x  TYPE_TAG x     A:x  TYPE_TAG x with kind_flag (attribute)
	 *   P    PTR            C    CONST        V  VOLATILE
	 *   R    RESTRICT       D    TYPEDEF      I  int
	 *   S    struct task_struct (kernel type)    0  void
	 *   L    struct bpf_spin_lock             N  struct holding kptr
	 *   F    FWD struct task_struct           G  FWD of no kernel struct
	 */
	const char *chain;
	enum expect pointee, attr;
	const char *msg;	/* for LOAD_FAIL */
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
	{ "tag_ptr_fwd_unknown", "T:kptr_untrusted>P>G", DATA, MAP_FAIL },
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

/* Add the chain @s (outermost first) and return the outermost type id. */
static int add_chain(struct btf *btf, const char *s, int ts, int lock, int nested,
		     int int_id)
{
	char buf[128], *tok[16], *save = NULL, *p;
	int n = 0, id = -1, i;

	snprintf(buf, sizeof(buf), "%s", s);
	for (p = strtok_r(buf, ">", &save); p && n < 16; p = strtok_r(NULL, ">", &save))
		tok[n++] = p;
	for (i = n - 1; i >= 0; i--) {
		p = tok[i];
		switch (p[0]) {
		case 'T':
			id = btf__add_type_tag(btf, p + 2, id);
			break;
		case 'A':
			id = btf__add_type_attr(btf, p + 2, id);
			break;
		case 'P':
			id = btf__add_ptr(btf, id);
			break;
		case 'C':
			id = btf__add_const(btf, id);
			break;
		case 'V':
			id = btf__add_volatile(btf, id);
			break;
		case 'R':
			id = btf__add_restrict(btf, id);
			break;
		case 'D':
			id = btf__add_typedef(btf, "td_t", id);
			break;
		case 'I':
			id = int_id;
			break;
		case 'S':
			id = ts;
			break;
		case 'L':
			id = lock;
			break;
		case 'N':
			id = nested;
			break;
		case 'Y':
			id = btf__add_array(btf, int_id, id, 1);
			break;
		case 'F':
			id = btf__add_fwd(btf, "task_struct", BTF_FWD_STRUCT);
			break;
		case 'G':
			id = btf__add_fwd(btf, "btf_tag_conv_no_such_struct", BTF_FWD_STRUCT);
			break;
		case '0':
			id = 0;
			break;
		default:
			return -EINVAL;
		}
		if (id < 0)
			return id;
	}
	return id;
}

/* Build a value struct { <chain> f; long x; } and return its id.  The
 * nested struct's kptr is written in the convention's own idiom.
 */
static int build(struct btf *btf, const char *chain, bool attr)
{
	int int_id, long_id, ts, lock, nested, kp, f, val;

	int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	long_id = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	ts = btf__add_struct(btf, "task_struct", 8);
	btf__add_field(btf, "a", long_id, 0, 0);
	lock = btf__add_struct(btf, "bpf_spin_lock", 4);
	btf__add_field(btf, "val", int_id, 0, 0);
	if (attr)
		kp = btf__add_type_tag(btf, "kptr_untrusted", btf__add_ptr(btf, ts));
	else
		kp = btf__add_ptr(btf, btf__add_type_tag(btf, "kptr_untrusted", ts));
	nested = btf__add_struct(btf, "inner", 8);
	btf__add_field(btf, "p", kp, 0, 0);
	f = add_chain(btf, chain, ts, lock, nested, int_id);
	if (f < 0)
		return f;
	val = btf__add_struct(btf, "val", 16);
	btf__add_field(btf, "f", f, 0, 0);
	btf__add_field(btf, "x", long_id, 64, 0);
	return val;
}

static int load_btf(struct btf *btf, __u8 flags, char *log, size_t log_sz)
{
	LIBBPF_OPTS(bpf_btf_load_opts, opts, .log_buf = log, .log_size = log_sz,
		    .log_level = 1);
	const void *raw;
	void *copy;
	__u32 sz;
	int fd;

	raw = btf__raw_data(btf, &sz);
	if (!ASSERT_OK_PTR(raw, "raw_data"))
		return -ENOMEM;
	copy = malloc(sz);
	if (!ASSERT_OK_PTR(copy, "malloc"))
		return -ENOMEM;
	memcpy(copy, raw, sz);
	((struct btf_header *)copy)->flags = flags;
	log[0] = 0;
	fd = bpf_btf_load(copy, sz, &opts);
	free(copy);
	return fd;
}

/* Create a one-element array map of @val_id (@vsz bytes) in @btf_fd with
 * @flags, and the map-create log (BPF_COMMON_ATTRS) in @log unless it is
 * NULL.  Returns the fd or -errno.
 */
static int create_map_log(int btf_fd, int key_id, int val_id, __u32 vsz, __u32 flags,
			  char *log, size_t log_sz)
{
	LIBBPF_OPTS(bpf_log_opts, lopts, .buf = log, .size = log_sz, .level = 1);
	LIBBPF_OPTS(bpf_map_create_opts, opts, .btf_fd = btf_fd,
		    .btf_key_type_id = key_id, .btf_value_type_id = val_id,
		    .map_flags = flags, .log_opts = log ? &lopts : NULL);
	int fd;

	if (log)
		log[0] = 0;
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "tag_conv", 4, vsz, 1, &opts);
	return fd < 0 ? -errno : fd;
}

/* Create a one-element array map whose @vsz-byte value is @val_id in
 * @btf_fd, store @in with @flags and read it back into @out.  Returns -1 if
 * the map cannot be created, -2 if the element is not stored and read back.
 */
static int map_roundtrip(int btf_fd, int key_id, int val_id, __u32 vsz,
			 const void *in, void *out, __u64 flags)
{
	int fd, key = 0, err = -2;

	fd = create_map_log(btf_fd, key_id, val_id, vsz, 0, NULL, 0);
	if (fd < 0)
		return -1;
	if (ASSERT_OK(bpf_map_update_elem(fd, &key, in, flags), "update") &&
	    ASSERT_OK(bpf_map_lookup_elem(fd, &key, out), "lookup"))
		err = 0;
	close(fd);
	return err;
}

/* Update then look up one element: the kernel zeroes special fields. */
static enum expect probe_map(int btf_fd, int val_id)
{
	__u64 in[2] = { 0xa5a5a5a5a5a5a5a5ULL, 42 }, out[2] = {};

	/* build() adds "int" first: type id 1 is the key. */
	if (map_roundtrip(btf_fd, 1, val_id, sizeof(in), in, out, 0))
		return MAP_FAIL;
	ASSERT_EQ(out[1], 42, "plain member kept");
	/* A spin lock is 4 bytes, a kptr 8: the low word decides. */
	return (__u32)out[0] ? DATA : SPECIAL;
}

static const char * const expect_str[] = { "data", "special", "load_fail", "map_fail" };
static const char * const conv_str[] = { "pointee", "attr" };

/* Load @btf with the header flags @flags and probe the map whose value is
 * @val, or LOAD_FAIL with the kernel's log in @log.
 */
static enum expect verdict(struct btf *btf, __u8 flags, int val, char *log, size_t log_sz)
{
	enum expect got;
	int fd;

	fd = load_btf(btf, flags, log, log_sz);
	if (fd < 0)
		return LOAD_FAIL;
	got = probe_map(fd, val);
	close(fd);
	return got;
}

static void run_case(const struct tag_case *c, bool attr)
{
	enum expect want = attr ? c->attr : c->pointee, got;
	char log[4096];
	struct btf *btf;
	int val;

	btf = btf__new_empty();
	if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
		return;
	val = build(btf, c->chain, attr);
	if (!ASSERT_GT(val, 0, "build"))
		goto out;
	got = verdict(btf, attr * BTF_FLAG_TYPE_TAG_ATTR, val, log, sizeof(log));
	if (!ASSERT_STREQ(expect_str[got], expect_str[want], c->chain))
		printf("log: %s\n", log);
	if (got == LOAD_FAIL && want == LOAD_FAIL && c->msg)
		ASSERT_HAS_SUBSTR(log, c->msg, "log");
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
		fd = load_btf(btf, i * BTF_FLAG_TYPE_TAG_ATTR, log, sizeof(log));
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
		val = build(btf, "T:foo>L", i);
		key_id = btf__add_type_tag(btf, "foo", 1 /* int */);
		val_id = btf__add_type_tag(btf, "bar", val);
		fd = load_btf(btf, i * BTF_FLAG_TYPE_TAG_ATTR, log, sizeof(log));
		if (!ASSERT_GE(fd, 0, "load")) {
			printf("log: %s\n", log);
			btf__free(btf);
			return;
		}
		/* BPF_F_LOCK needs the spin lock to be found. */
		if (ASSERT_OK(map_roundtrip(fd, key_id, val_id, sizeof(in), in, out,
					    BPF_F_LOCK), "map"))
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
			fd = load_btf(btf, attr * BTF_FLAG_TYPE_TAG_ATTR, log, sizeof(log));
			if (!ASSERT_GE(fd, 0, fields[i].name)) {
				printf("log: %s\n", log);
				btf__free(btf);
				continue;
			}
			memset(in, 0xa5, sizeof(in));
			memset(out, 0, sizeof(out));
			if (ASSERT_OK(map_roundtrip(fd, int_id, val, vsz, in, out, 0),
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
				fd = load_btf(btf, attr * BTF_FLAG_TYPE_TAG_ATTR, log, sizeof(log));
				if (!ASSERT_GE(fd, 0, name)) {
					printf("log: %s\n", log);
					btf__free(btf);
					continue;
				}
				memset(in, 0xa5, sizeof(in));
				memset(out, 0, sizeof(out));
				err = in_map ? map_roundtrip(fd, int_id, val, sizeof(in), in,
							     out, 0) : 0;
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
	enum expect got;
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
		got = verdict(btf, attr * BTF_FLAG_TYPE_TAG_ATTR, val, log, sizeof(log));
		if (!ASSERT_STREQ(expect_str[got], expect_str[SPECIAL], conv_str[attr]))
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
	fd = load_btf(btf, 0, log, sizeof(log));
	if (!ASSERT_GE(fd, 0, "load"))
		goto out;
	/* BPF_F_LOCK needs the spin lock to be found. */
	if (ASSERT_OK(map_roundtrip(fd, int_id, val, sizeof(in), in, out, BPF_F_LOCK),
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
	fd = load_btf(btf, BTF_FLAG_TYPE_TAG_ATTR << 1, log, sizeof(log));
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
			arg = add_chain(btf, chains[i], skb, -1, -1, int_id);
			proto = btf__add_func_proto(btf, int_id);
			btf__add_func_param(btf, "ctx", btf__add_ptr(btf, skb));
			main_id = btf__add_func(btf, "main", BTF_FUNC_GLOBAL, proto);
			proto = btf__add_func_proto(btf, int_id);
			btf__add_func_param(btf, "a", arg);
			sub_id = btf__add_func(btf, "sub", BTF_FUNC_GLOBAL, proto);
			btf_fd = load_btf(btf, attr * BTF_FLAG_TYPE_TAG_ATTR, log, sizeof(log));
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
	p = add_chain(btf, chain, leaf, -1, -1, long_id);
	node = btf__add_struct(btf, "node", 8);
	btf__add_field(btf, "p", p, 0, 0);
	proto = btf__add_func_proto(btf, int_id);
	btf__add_func_param(btf, "ctx", btf__add_ptr(btf, skb));
	main_id = btf__add_func(btf, "main", BTF_FUNC_GLOBAL, proto);
	btf_fd = load_btf(btf, attr * BTF_FLAG_TYPE_TAG_ATTR, blog, sizeof(blog));
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
	enum expect got;
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
				fd = load_btf(btf, attr * BTF_FLAG_TYPE_TAG_ATTR, log, sizeof(log));
				if (lens[i] > 32 && attr) {
					/* With the flag, a run over 32 is refused */
					ASSERT_EQ(fd, -ELOOP, name);
				} else if (ASSERT_GE(fd, 0, name)) {
					got = probe_map(fd, val);
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
			fd = load_btf(btf, attr * BTF_FLAG_TYPE_TAG_ATTR, log, sizeof(log));
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
	int i, with_lock, fd, int_id, long_id, file, lock, f, holder;
	char log[4096];
	struct btf *btf;

	for (i = 0; i < ARRAY_SIZE(chains); i++) {
		for (with_lock = 0; with_lock < 2; with_lock++) {
			btf = btf__new_empty();
			if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
				return;
			int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
			long_id = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
			/* In vmlinux, and without a destructor kfunc */
			file = btf__add_struct(btf, "file", 8);
			btf__add_field(btf, "a", long_id, 0, 0);
			lock = btf__add_struct(btf, "bpf_spin_lock", 4);
			btf__add_field(btf, "val", int_id, 0, 0);
			f = add_chain(btf, chains[i], file, lock, -1, int_id);
			holder = btf__add_struct(btf, "holder", 16);
			btf__add_field(btf, "f", f, 0, 0);
			if (with_lock)
				btf__add_field(btf, "lock", lock, 64, 0);
			else
				btf__add_field(btf, "x", long_id, 64, 0);
			ASSERT_GT(holder, 0, "holder");
			fd = load_btf(btf, 0, log, sizeof(log));
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
		fd = load_btf(btf, attr * BTF_FLAG_TYPE_TAG_ATTR, log, sizeof(log));
		if (attr) {
			ASSERT_EQ(fd, -E2BIG, "attr");
		} else if (ASSERT_GE(fd, 0, "pointee")) {
			ASSERT_HAS_SUBSTR(log, "member 'a'", "log a");
			ASSERT_HAS_SUBSTR(log, "member 'b'", "log b");
			mfd = create_map_log(fd, int_id, val, sizeof(v), 0, mlog, sizeof(mlog));
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
			fd = load_btf(btf, attr * BTF_FLAG_TYPE_TAG_ATTR, log, sizeof(log));
			if (!ASSERT_GE(fd, 0, "load")) {
				btf__free(btf);
				continue;
			}
			mfd = create_map_log(fd, int_id, val, vsz, 0, mlog, sizeof(mlog));
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

/* A .bss holding a typedef kptr in an mmap-able array map:
 *   typedef struct task_struct __kptr *kp_t; kp_t p;
 * Without the flag, mmap() works as it always did (the typedef is data in
 * the legacy reading) and the map-create log names 'p'.  With the flag
 * (D>T:kptr>P>S) the kptr is kept and mmap() fails.
 */
static void test_legacy_bss_kptr(void)
{
	int attr, fd, mfd, long_id, ts, p, var, sec;
	char log[4096], mlog[1024];
	void *mem;
	struct btf *btf;

	for (attr = 0; attr < 2; attr++) {
		btf = btf__new_empty();
		if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
			return;
		btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
		long_id = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
		ts = btf__add_struct(btf, "task_struct", 8);
		btf__add_field(btf, "a", long_id, 0, 0);
		p = add_chain(btf, attr ? "D>T:kptr>P>S" : "D>P>T:kptr>S", ts, -1, -1, 1);
		var = btf__add_var(btf, "p", BTF_VAR_GLOBAL_ALLOCATED, p);
		sec = btf__add_datasec(btf, ".bss", 8);
		btf__add_datasec_var_info(btf, var, 0, 8);
		fd = load_btf(btf, attr * BTF_FLAG_TYPE_TAG_ATTR, log, sizeof(log));
		if (!ASSERT_GE(fd, 0, "load")) {
			printf("log: %s\n", log);
			btf__free(btf);
			continue;
		}
		mfd = create_map_log(fd, 0, sec, 8, BPF_F_MMAPABLE, mlog, sizeof(mlog));
		if (ASSERT_GE(mfd, 0, "map")) {
			mem = mmap(NULL, getpagesize(), PROT_READ | PROT_WRITE, MAP_SHARED,
				   mfd, 0);
			if (attr) {
				ASSERT_EQ(mem, MAP_FAILED, "kptr kept");
			} else {
				ASSERT_NEQ(mem, MAP_FAILED, "mmap as before");
				ASSERT_HAS_SUBSTR(mlog, "variable 'p'", "log");
			}
			if (mem != MAP_FAILED)
				munmap(mem, getpagesize());
			close(mfd);
		}
		close(fd);
		btf__free(btf);
	}
}

/* libbpf's conversion between the conventions: each pointee chain, what it
 * becomes in the attribute convention, and what that becomes converted
 * back.  The verdicts stay the same.
 */
struct conv_case {
	const char *pointee, *attr, *back;
	/* The attribute form fails map creation: with the flag, a malformed
	 * kptr is an error; without it, the map is made without the field.
	 */
	bool attr_map_fail;
};

static const struct conv_case conv_cases[] = {
	{ "P>T:kptr>S", "T:kptr>P>S", "P>T:kptr>S" },
	{ "P>T:kptr_untrusted>S", "T:kptr_untrusted>P>S", "P>T:kptr_untrusted>S" },
	{ "P>T:percpu_kptr>S", "T:percpu_kptr>P>S", "P>T:percpu_kptr>S" },
	{ "P>T:uptr>S", "T:uptr>P>S", "P>T:uptr>S" },
	{ "C>P>T:kptr>S", "C>T:kptr>P>S", "C>P>T:kptr>S" },
	{ "V>P>T:kptr>S", "V>T:kptr>P>S", "V>P>T:kptr>S" },
	{ "D>P>T:kptr>S", "D>T:kptr>P>S", "D>P>T:kptr>S" },
	/* Links after the PTR stay there, behind the moved tags. */
	{ "P>C>T:kptr>S", "T:kptr>P>C>S", "P>T:kptr>C>S" },
	{ "P>T:rcu>T:kptr>S", "T:kptr>P>T:rcu>S", "P>T:kptr>T:rcu>S" },
	{ "P>T:kptr>P>S", "T:kptr>P>P>S", "P>T:kptr>P>S", true },
	{ "Y>P>T:kptr>S", "Y>T:kptr>P>S", "Y>P>T:kptr>S" },
	/* Nothing to move */
	{ "P>T:user>I", "P>T:user>I", "P>T:user>I" },
	{ "P>T:foo>S", "P>T:foo>S", "P>T:foo>S" },
	{ "P>A:kptr>S", "P>A:kptr>S", "P>A:kptr>S" },
	{ "T:kptr>P>S", "T:kptr>P>S", "P>T:kptr>S" },
	{ "T:foo>L", "T:foo>L", "T:foo>L" },
};

/* Render the chain at @id the way add_chain() reads it. */
static void chain_str(const struct btf *btf, __u32 id, char *buf, size_t sz)
{
	static const char links[] = {
		[BTF_KIND_PTR] = 'P', [BTF_KIND_CONST] = 'C', [BTF_KIND_VOLATILE] = 'V',
		[BTF_KIND_RESTRICT] = 'R', [BTF_KIND_TYPEDEF] = 'D', [BTF_KIND_ARRAY] = 'Y',
	};
	const struct btf_type *t;
	const char *name;
	int n = 0, i, k;

	buf[0] = 0;
	for (i = 0; i < 16 && n < sz; i++) {
		t = btf__type_by_id(btf, id);
		name = btf__name_by_offset(btf, t->name_off);
		k = btf_kind(t);
		if (k == BTF_KIND_TYPE_TAG) {
			n += snprintf(buf + n, sz - n, "%s:%s>", btf_kflag(t) ? "A" : "T", name);
		} else if (k < sizeof(links) && links[k]) {
			n += snprintf(buf + n, sz - n, "%c>", links[k]);
		} else {
			/* The end of the chain: 0 (void), I, S or L */
			n += snprintf(buf + n, sz - n, "%s", !id ? "0" :
				      k == BTF_KIND_INT ? "I" :
				      k != BTF_KIND_STRUCT ? "?" :
				      strcmp(name, "bpf_spin_lock") ? "S" : "L");
			return;
		}
		id = k == BTF_KIND_ARRAY ? btf_array(t)->type : t->type;
	}
}

/* The header flags of @btf's own convention */
static __u8 header_flags(const struct btf *btf)
{
	return btf__type_tag_conv(btf) == BTF_TYPE_TAG_CONV_ATTRIBUTE ? BTF_FLAG_TYPE_TAG_ATTR : 0;
}

static void test_convert(const struct conv_case *c)
{
	enum expect want, got;
	char buf[128], log[4096];
	struct btf *btf;
	__u32 member;
	int val;

	btf = btf__new_empty();
	if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
		return;
	val = build(btf, c->pointee, false);
	if (!ASSERT_GT(val, 0, "build"))
		goto out;
	member = btf_members(btf__type_by_id(btf, val))[0].type;
	want = verdict(btf, header_flags(btf), val, log, sizeof(log));

	if (!ASSERT_OK(btf__convert_type_tags(btf, BTF_TYPE_TAG_CONV_ATTRIBUTE, NULL), "to attr"))
		goto out;
	ASSERT_EQ(btf__type_tag_conv(btf), BTF_TYPE_TAG_CONV_ATTRIBUTE, "attr");
	chain_str(btf, member, buf, sizeof(buf));
	ASSERT_STREQ(buf, c->attr, "attr chain");
	got = verdict(btf, header_flags(btf), val, log, sizeof(log));
	ASSERT_STREQ(expect_str[got], expect_str[c->attr_map_fail ? MAP_FAIL : want],
		     "attr verdict");

	if (!ASSERT_OK(btf__convert_type_tags(btf, BTF_TYPE_TAG_CONV_POINTEE, NULL), "to pointee"))
		goto out;
	ASSERT_EQ(btf__type_tag_conv(btf), BTF_TYPE_TAG_CONV_POINTEE, "pointee");
	chain_str(btf, member, buf, sizeof(buf));
	ASSERT_STREQ(buf, c->back, "pointee chain");
	got = verdict(btf, header_flags(btf), val, log, sizeof(log));
	ASSERT_STREQ(expect_str[got], expect_str[want], "pointee verdict");
out:
	btf__free(btf);
}

/* Chains that the kernel reads the same way in both conventions, and what
 * the conversion makes of them, without a kernel: pointers to pointers as
 * the compilers emit them (inner PTR first), void pointees, typedefs.
 */
static const struct {
	const char *from;
	bool attr;	/* @from is in the attribute convention */
	const char *to;
} shape_cases[] = {
	/* struct task_struct __kptr **b: a plain pointer to a kptr */
	{ "P>P>T:kptr>S", false, "P>T:kptr>P>S" },
	{ "P>T:kptr>P>S", true, "P>P>T:kptr>S" },
	{ "P>T:kptr>P>T:kptr>S", false, "T:kptr>P>T:kptr>P>S" },
	{ "T:kptr>P>T:kptr>P>S", true, "P>T:kptr>P>T:kptr>S" },
	/* void pointees */
	{ "T:kptr>C>P>0", true, "C>P>T:kptr>0" },
	{ "T:uptr>P>0", true, "P>T:uptr>0" },
	{ "P>C>T:kptr>0", false, "T:kptr>P>C>0" },
	{ "P>T:uptr>0", false, "T:uptr>P>0" },
	/* typedefs of tagged types */
	{ "P>D>T:kptr>S", false, "T:kptr>P>D>S" },
	{ "D>T:kptr>P>S", true, "D>P>T:kptr>S" },
	/* a kptr tag on no pointer means nothing without the flag */
	{ "T:kptr>I", false, "I" },
	{ "C>T:kptr>S", false, "C>S" },
};

/* The chain each shape converts to, and no kind_flag=1 type tag that was
 * not there
 */
static void test_convert_shapes(void)
{
	enum btf_type_tag_conv to;
	const struct btf_type *t;
	int i, j, val, attrs;
	struct btf *btf;
	char buf[128];

	for (i = 0; i < ARRAY_SIZE(shape_cases); i++) {
		btf = btf__new_empty();
		if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
			return;
		val = build(btf, shape_cases[i].from, shape_cases[i].attr);
		if (!ASSERT_GT(val, 0, shape_cases[i].from))
			goto next;
		if (shape_cases[i].attr)
			btf_set_type_tag_conv(btf, BTF_TYPE_TAG_CONV_ATTRIBUTE);
		to = shape_cases[i].attr ? BTF_TYPE_TAG_CONV_POINTEE : BTF_TYPE_TAG_CONV_ATTRIBUTE;
		if (!ASSERT_OK(btf__convert_type_tags(btf, to, NULL), shape_cases[i].from))
			goto next;
		chain_str(btf, btf_members(btf__type_by_id(btf, val))[0].type, buf, sizeof(buf));
		ASSERT_STREQ(buf, shape_cases[i].to, shape_cases[i].from);
		for (j = 1, attrs = 0; j < btf__type_cnt(btf); j++) {
			t = btf__type_by_id(btf, j);
			attrs += btf_is_type_tag(t) && btf_kflag(t);
		}
		ASSERT_EQ(attrs, 0, "no attributes left behind");
next:
		btf__free(btf);
	}
}

/* BTF that cannot be converted: the error, and no crash. */
static void test_convert_errors(void)
{
	struct btf *btf, *copy;
	__u32 sz, sz2;
	const void *raw;
	void *data;
	int i, id;

	/* A pointer property of the attribute convention on a struct */
	btf = btf__new_empty();
	if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
		return;
	ASSERT_GT(build(btf, "P>T:kptr>S", true), 0, "build");
	ASSERT_OK(btf_set_type_tag_conv(btf, BTF_TYPE_TAG_CONV_ATTRIBUTE), "set attr");
	ASSERT_EQ(btf__convert_type_tags(btf, BTF_TYPE_TAG_CONV_POINTEE, NULL), -EINVAL,
		  "not a ptr");
	ASSERT_EQ(btf_set_type_tag_conv(btf, 2), -EINVAL, "unknown convention");
	btf__free(btf);

	/* A chain that fails makes the whole conversion fail, and the BTF
	 * is left as it was: no chain converted, no type appended.
	 */
	btf = btf__new_empty();
	if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
		return;
	ASSERT_GT(build(btf, "T:kptr>P>S", true), 0, "build");
	ASSERT_GT(add_chain(btf, "P>T:kptr>S",
			    btf__find_by_name_kind(btf, "task_struct", BTF_KIND_STRUCT), -1, -1,
			    btf__find_by_name_kind(btf, "int", BTF_KIND_INT)), 0, "bad chain");
	ASSERT_OK(btf_set_type_tag_conv(btf, BTF_TYPE_TAG_CONV_ATTRIBUTE), "set attr");
	raw = btf__raw_data(btf, &sz);
	data = malloc(sz);
	if (ASSERT_OK_PTR(data, "malloc")) {
		memcpy(data, raw, sz);
		id = btf__type_cnt(btf);
		ASSERT_EQ(btf__convert_type_tags(btf, BTF_TYPE_TAG_CONV_POINTEE, NULL), -EINVAL,
			  "one bad chain");
		ASSERT_EQ(btf__type_cnt(btf), id, "no type appended");
		raw = btf__raw_data(btf, &sz2);
		ASSERT_EQ(sz2, sz, "same size");
		ASSERT_OK(memcmp(raw, data, sz), "same bytes");
		free(data);
	}
	btf__free(btf);

	/* A cycle of consts behind a pointer, and a chain of 40 */
	btf = btf__new_empty();
	if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
		return;
	id = btf__add_const(btf, btf__type_cnt(btf));
	btf__add_ptr(btf, id);
	ASSERT_EQ(btf__convert_type_tags(btf, BTF_TYPE_TAG_CONV_ATTRIBUTE, NULL), -ELOOP, "cycle");
	btf__free(btf);
	btf = btf__new_empty();
	if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
		return;
	id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	id = btf__add_type_tag(btf, "kptr", id);
	for (i = 0; i < 40; i++)
		id = btf__add_const(btf, id);
	btf__add_ptr(btf, id);
	ASSERT_EQ(btf__convert_type_tags(btf, BTF_TYPE_TAG_CONV_ATTRIBUTE, NULL), -ELOOP, "long");

	/* Header flags libbpf does not know */
	raw = btf__raw_data(btf, &sz);
	data = malloc(sz);
	if (ASSERT_OK_PTR(data, "malloc")) {
		memcpy(data, raw, sz);
		((struct btf_header *)data)->flags = BTF_FLAG_TYPE_TAG_ATTR << 1;
		copy = btf__new(data, sz);
		if (ASSERT_OK_PTR(copy, "btf__new")) {
			ASSERT_EQ(btf__type_tag_conv(copy), BTF_TYPE_TAG_CONV_POINTEE, "conv");
			ASSERT_EQ(btf__convert_type_tags(copy, BTF_TYPE_TAG_CONV_ATTRIBUTE, NULL),
				  -EOPNOTSUPP, "unknown flag");
			btf__free(copy);
		}
		free(data);
	}
	btf__free(btf);
}

/* btf__dedup() keeps the convention and the attribute chains. */
static void test_convert_dedup(void)
{
	int a, b, ts, int_id;
	struct btf *btf;
	char buf[128];

	btf = btf__new_empty();
	if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
		return;
	int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	ts = btf__add_struct(btf, "task_struct", 4);
	btf__add_field(btf, "a", int_id, 0, 0);
	a = add_chain(btf, "T:kptr>P>S", ts, -1, -1, int_id);
	b = add_chain(btf, "T:kptr>P>S", ts, -1, -1, int_id);
	btf__add_struct(btf, "val", 16);
	btf__add_field(btf, "a", a, 0, 0);
	btf__add_field(btf, "b", b, 64, 0);
	ASSERT_OK(btf_set_type_tag_conv(btf, BTF_TYPE_TAG_CONV_ATTRIBUTE), "set attr");
	if (!ASSERT_OK(btf__dedup(btf, NULL), "dedup"))
		goto out;
	ASSERT_EQ(btf__type_cnt(btf), 6, "types");
	ASSERT_EQ(btf__type_tag_conv(btf), BTF_TYPE_TAG_CONV_ATTRIBUTE, "attr");
	chain_str(btf, btf_members(btf__type_by_id(btf, 5))[1].type, buf, sizeof(buf));
	ASSERT_STREQ(buf, "T:kptr>P>S", "chain");
out:
	btf__free(btf);
}

static void btf_dump_printf(void *ctx, const char *fmt, va_list args)
{
	vfprintf(ctx, fmt, args);
}

/* btf_dump writes attribute-convention BTF in the pointee convention's C,
 * the one every compiler turns back into the same chains.
 */
static void test_convert_dump(void)
{
	static const char late[] =
		"struct late {\n\tstruct task_struct __attribute__((btf_type_tag(\"kptr\"))) *a;";
	static const char * const want[] = {
		"struct task_struct __attribute__((btf_type_tag(\"kptr\"))) *a;",
		"struct task_struct __attribute__((btf_type_tag(\"kptr\"))) * const b;",
		"typedef struct task_struct __attribute__((btf_type_tag(\"kptr\"))) *kp_t;",
	};
	int i, int_id, ts, a, b, d, val;
	struct btf_dump *dump = NULL;
	char *buf = NULL;
	size_t buf_sz;
	struct btf *btf;
	FILE *f;

	btf = btf__new_empty();
	if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
		return;
	int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	ts = btf__add_struct(btf, "task_struct", 4);
	btf__add_field(btf, "pid", int_id, 0, 0);
	a = add_chain(btf, "T:kptr>P>S", ts, -1, -1, int_id);
	b = add_chain(btf, "C>T:kptr>P>S", ts, -1, -1, int_id);
	d = btf__add_typedef(btf, "kp_t", add_chain(btf, "T:kptr>P>S", ts, -1, -1, int_id));
	val = btf__add_struct(btf, "val", 24);
	btf__add_field(btf, "a", a, 0, 0);
	btf__add_field(btf, "b", b, 64, 0);
	btf__add_field(btf, "c", d, 128, 0);
	ASSERT_OK(btf_set_type_tag_conv(btf, BTF_TYPE_TAG_CONV_ATTRIBUTE), "set attr");

	f = open_memstream(&buf, &buf_sz);
	if (!ASSERT_OK_PTR(f, "open_memstream"))
		goto out;
	dump = btf_dump__new(btf, btf_dump_printf, f, NULL);
	if (ASSERT_OK_PTR(dump, "btf_dump__new"))
		ASSERT_OK(btf_dump__dump_type(dump, val), "dump");
	/* Types added after btf_dump__new() are dumped as they are, and a
	 * tag in front of a typedef stays there, without a copy of the
	 * typedef (tp_t___2).
	 */
	d = btf__add_type_tag(btf, "kptr", btf__add_typedef(btf, "tp_t", btf__add_ptr(btf, ts)));
	a = add_chain(btf, "T:kptr>P>S", ts, -1, -1, int_id);
	val = btf__add_struct(btf, "late", 16);
	btf__add_field(btf, "a", a, 0, 0);
	btf__add_field(btf, "t", d, 64, 0);
	if (dump)
		ASSERT_OK(btf_dump__dump_type(dump, val), "dump late");
	fclose(f);
	for (i = 0; i < ARRAY_SIZE(want); i++)
		ASSERT_HAS_SUBSTR(buf, want[i], "declaration");
	ASSERT_HAS_SUBSTR(buf, late, "late type");
	ASSERT_HAS_SUBSTR(buf, "tp_t __attribute__((btf_type_tag(\"kptr\"))) t;", "tagged typedef");
	ASSERT_NULL(strstr(buf, "___"), "no renamed copy");
	/* The BTF itself is left in its convention. */
	ASSERT_EQ(btf__type_tag_conv(btf), BTF_TYPE_TAG_CONV_ATTRIBUTE, "attr");
out:
	btf_dump__free(dump);
	free(buf);
	btf__free(btf);
}

/* A test object converted by the linker, for test_loader */
static void *conv_bytes;
static size_t conv_sz;

static const void *conv_elf_bytes(size_t *sz)
{
	*sz = conv_sz;
	return conv_bytes;
}

/* Link @n objects @in into one in @conv (or, for -1, with the linker's
 * default options); the result in malloc()ed *@out.
 */
static int link_objects(const void **in, size_t *in_sz, int n, int conv, void **out,
			size_t *out_sz)
{
	LIBBPF_OPTS(bpf_linker_opts, opts);
	struct bpf_linker *linker;
	struct stat st;
	int i, fd, err = 0;

	if (conv >= 0)
		opts.type_tag_conv = conv;
	*out = NULL;
	fd = memfd_create("btf_tag_conv", 0);
	if (!ASSERT_GE(fd, 0, "memfd"))
		return -errno;
	linker = bpf_linker__new_fd(fd, &opts);
	if (!ASSERT_OK_PTR(linker, "linker")) {
		close(fd);
		return -errno;
	}
	for (i = 0; i < n && !err; i++)
		err = bpf_linker__add_buf(linker, (void *)in[i], in_sz[i], NULL);
	err = err ?: bpf_linker__finalize(linker);
	bpf_linker__free(linker);
	if (ASSERT_OK(err, "link") && ASSERT_OK(fstat(fd, &st), "fstat")) {
		*out_sz = st.st_size;
		*out = malloc(*out_sz);
		if (!ASSERT_OK_PTR(*out, "malloc") ||
		    !ASSERT_EQ(pread(fd, *out, *out_sz, 0), *out_sz, "read"))
			err = -EIO;
	}
	close(fd);
	return err;
}

/* Link @in alone into @conv. */
static int link_converted(const void *in, size_t in_sz, enum btf_type_tag_conv conv,
			  void **out, size_t *out_sz)
{
	return link_objects(&in, &in_sz, 1, conv, out, out_sz);
}

/* Count the pointer-property tags in front of (@before) or after a PTR. */
static int count_kptr_tags(const struct btf *btf, bool before)
{
	const struct btf_type *t, *r;
	const char *name;
	int i, n = 0;

	for (i = 1; i < btf__type_cnt(btf); i++) {
		t = btf__type_by_id(btf, i);
		if (!btf_is_ptr(t) && !btf_is_type_tag(t))
			continue;
		r = btf__type_by_id(btf, t->type);
		if (!r || !btf_is_ptr(before ? r : t))
			continue;
		t = before ? t : r;
		if (!btf_is_type_tag(t) || btf_kflag(t))
			continue;
		name = btf__name_by_offset(btf, t->name_off);
		n += strcmp(name, "kptr") == 0 || strcmp(name, "kptr_untrusted") == 0;
	}
	return n;
}

/* Check that the object @bytes is in @conv, with kptr tags in its places. */
static void check_object(const void *bytes, size_t sz, enum btf_type_tag_conv conv)
{
	bool attr = conv == BTF_TYPE_TAG_CONV_ATTRIBUTE;
	struct bpf_object *obj;
	struct btf *btf;

	obj = bpf_object__open_mem(bytes, sz, NULL);
	if (!ASSERT_OK_PTR(obj, "open"))
		return;
	btf = bpf_object__btf(obj);
	ASSERT_EQ(btf__type_tag_conv(btf), conv, "convention");
	ASSERT_GE(count_kptr_tags(btf, attr), 1, "moved");
	ASSERT_EQ(count_kptr_tags(btf, !attr), 0, "left");
	bpf_object__close(obj);
}

/* The linker converts a whole object, to the attribute convention and
 * back, and gives objects of both conventions linked together the first
 * one's.
 */
static void test_convert_linker(void)
{
	size_t in_sz[2], attr_sz, back_sz, both_sz;
	void *attr, *back, *both;
	const void *in[2];

	in[0] = btf_tag_conv_kptr__elf_bytes(&in_sz[0]);
	if (link_converted(in[0], in_sz[0], BTF_TYPE_TAG_CONV_ATTRIBUTE, &attr, &attr_sz))
		goto out;
	check_object(attr, attr_sz, BTF_TYPE_TAG_CONV_ATTRIBUTE);
	if (!link_converted(attr, attr_sz, BTF_TYPE_TAG_CONV_POINTEE, &back, &back_sz))
		check_object(back, back_sz, BTF_TYPE_TAG_CONV_POINTEE);
	free(back);

	/* Without a convention asked for, the output is in the pointee
	 * one, whichever input comes first.  The user programs' object has
	 * no kptr: link it second, then first.
	 */
	in[0] = attr;
	in_sz[0] = attr_sz;
	in[1] = btf_tag_conv_user__elf_bytes(&in_sz[1]);
	if (!link_objects(in, in_sz, 2, -1, &both, &both_sz))
		check_object(both, both_sz, BTF_TYPE_TAG_CONV_POINTEE);
	free(both);
	in[0] = in[1];
	in_sz[0] = in_sz[1];
	in[1] = attr;
	in_sz[1] = attr_sz;
	if (!link_objects(in, in_sz, 2, -1, &both, &both_sz))
		check_object(both, both_sz, BTF_TYPE_TAG_CONV_POINTEE);
	free(both);
out:
	free(attr);
}

/* The kptr and the user pointer programs, converted to the attribute
 * convention, get the verdicts they get in the producer's convention.  A
 * kernel without the flag gets them back in the pointee convention from
 * libbpf.
 */
/* Open @bytes for a kernel without BTF_FLAG_TYPE_TAG_ATTR, as libbpf sees
 * it: the feature forced missing in the object's cache, as btf_sanitize
 * does.
 */
static struct bpf_object *open_without_attr(const void *bytes, size_t sz)
{
	struct kern_feature_cache *cache;
	struct bpf_object *obj;
	int i;

	obj = bpf_object__open_mem(bytes, sz, NULL);
	if (!ASSERT_OK_PTR(obj, "open"))
		return NULL;
	cache = calloc(1, sizeof(*cache));
	if (!ASSERT_OK_PTR(cache, "cache")) {
		bpf_object__close(obj);
		return NULL;
	}
	for (i = 0; i < __FEAT_CNT; i++)
		cache->res[i] = FEAT_SUPPORTED;
	cache->res[FEAT_BTF_TYPE_TAG_ATTR] = FEAT_MISSING;
	bpf_object_set_feat_cache(obj, cache);
	return obj;
}

/* libbpf converts the object's attribute-convention BTF back for such a
 * kernel, and the programs whose verdict does not depend on the compiler
 * load: the map keeps its kptrs.
 */
static void test_convert_sanitize(void)
{
	struct bpf_object *obj = NULL;
	struct btf *kern_btf = NULL;
	struct bpf_program *prog;
	void *out = NULL;
	const void *in;
	size_t in_sz, out_sz;
	struct btf *btf;
	int id;

	in = btf_tag_conv_kptr__elf_bytes(&in_sz);
	if (link_converted(in, in_sz, BTF_TYPE_TAG_CONV_ATTRIBUTE, &out, &out_sz))
		return;
	obj = open_without_attr(out, out_sz);
	if (!obj)
		goto out;

	ASSERT_EQ(btf__type_tag_conv(bpf_object__btf(obj)), BTF_TYPE_TAG_CONV_ATTRIBUTE, "object");
	kern_btf = bpf_object__sanitize_btf(obj, bpf_object__btf(obj));
	if (!ASSERT_OK_PTR(kern_btf, "sanitize"))
		goto out;
	ASSERT_EQ(btf__type_tag_conv(kern_btf), BTF_TYPE_TAG_CONV_POINTEE, "for the kernel");
	ASSERT_EQ(count_kptr_tags(kern_btf, true), 0, "no kptr tag before a PTR");
	ASSERT_GE(count_kptr_tags(kern_btf, false), 2, "kptr tags after a PTR");

	/* The two whose verdict depends on where the compiler put the tag */
	bpf_object__for_each_program(prog, obj)
		bpf_program__set_autoload(prog, strcmp(bpf_program__name(prog), "kptr_star") &&
					  strcmp(bpf_program__name(prog), "kptr_typedef_star"));
	ASSERT_OK(bpf_object__load(obj), "load");
	bpf_object__close(obj);

	/* BTF that cannot be converted back is, for such a kernel, BTF that
	 * it rejects: optional BTF is left out, as it always was.
	 */
	obj = open_without_attr(out, out_sz);
	if (!obj)
		goto out;
	btf = bpf_object__btf(obj);
	id = btf__find_by_name_kind(btf, "int", BTF_KIND_INT);
	if (!ASSERT_GT(id, 0, "int") ||
	    !ASSERT_GT(btf__add_type_tag(btf, "kptr", id), 0, "kptr on an int"))
		goto out;
	bpf_object__for_each_program(prog, obj)
		bpf_program__set_autoload(prog, false);
	ASSERT_OK(bpf_object__load(obj), "load without BTF");
	ASSERT_LT(bpf_object__btf_fd(obj), 0, "no BTF loaded");
out:
	btf__free(kern_btf);
	bpf_object__close(obj);
	free(out);
}

/* The copy for a kernel without the flag makes a member refer to the
 * kptr's PTR, not to the typedef in front of it: a DECL_TAG on the typedef
 * keeps a typedef as its target, and the kernel takes the BTF.
 */
static void test_sanitize_decl_tag(void)
{
	const struct btf_type *t;
	int td, val, dt, err;
	struct btf *btf;

	btf = btf__new_empty();
	if (!ASSERT_OK_PTR(btf, "new"))
		return;
	/* typedef struct task_struct * __kptr_untrusted td_t;
	 * struct val { td_t f; long x; };
	 */
	val = build(btf, "D>T:kptr_untrusted>P>S", true);
	if (!ASSERT_GT(val, 0, "build"))
		goto out;
	td = btf_members(btf__type_by_id(btf, val))[0].type;
	dt = btf__add_decl_tag(btf, "td_tag", td, -1);
	if (!ASSERT_GT(dt, 0, "decl tag") ||
	    !ASSERT_OK(btf_set_type_tag_conv(btf, BTF_TYPE_TAG_CONV_ATTRIBUTE), "attr") ||
	    !ASSERT_OK(btf_convert_type_tags(btf, BTF_TYPE_TAG_CONV_POINTEE, true), "sanitize"))
		goto out;

	t = btf__type_by_id(btf, btf__type_by_id(btf, dt)->type);
	ASSERT_EQ(btf_kind(t), BTF_KIND_TYPEDEF, "decl tag target");
	t = btf__type_by_id(btf, btf_members(btf__type_by_id(btf, val))[0].type);
	if (ASSERT_EQ(btf_kind(t), BTF_KIND_PTR, "member is the PTR"))
		ASSERT_TRUE(btf_is_type_tag(btf__type_by_id(btf, t->type)), "PTR -> TYPE_TAG");
	err = btf__load_into_kernel(btf);
	ASSERT_OK(err, "load");
out:
	btf__free(btf);
}

/* A light skeleton's loader runs on kernels that nobody probed: the BTF in
 * its data is in the pointee convention, which every kernel reads.
 */
static void test_light_skel_pointee(void)
{
	LIBBPF_OPTS(gen_loader_opts, gen);
	struct bpf_object *obj = NULL;
	int pointee = 0, attr = 0;
	size_t in_sz, out_sz;
	void *out = NULL;
	const __u8 *d;
	const void *in;
	__u32 i;

	in = btf_tag_conv_kptr__elf_bytes(&in_sz);
	if (link_converted(in, in_sz, BTF_TYPE_TAG_CONV_ATTRIBUTE, &out, &out_sz))
		return;
	obj = bpf_object__open_mem(out, out_sz, NULL);
	if (!ASSERT_OK_PTR(obj, "open") ||
	    !ASSERT_OK(bpf_object__gen_loader(obj, &gen), "gen_loader") ||
	    !ASSERT_OK(bpf_object__load(obj), "generate"))
		goto out;
	/* struct btf_header: magic 0xeB9F, version 1, flags, hdr_len */
	for (i = 0, d = (const __u8 *)gen.data; i + sizeof(struct btf_header) <= gen.data_sz; i++) {
		if (d[i] != 0x9f || d[i + 1] != 0xeb || d[i + 2] != BTF_VERSION)
			continue;
		if (d[i + 3] & BTF_FLAG_TYPE_TAG_ATTR)
			attr++;
		else
			pointee++;
	}
	ASSERT_EQ(pointee, 1, "pointee BTF in the loader's data");
	ASSERT_EQ(attr, 0, "attribute BTF in the loader's data");
out:
	bpf_object__close(obj);
	free(out);
}

static char load_msg[4096];

static int load_msg_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	size_t n = strlen(load_msg);

	if (n < sizeof(load_msg) - 1)
		vsnprintf(load_msg + n, sizeof(load_msg) - n, fmt, args);
	return 0;
}

/* A direct caller of btf__load_into_kernel() gets attribute-convention BTF
 * loaded by a kernel that reads the flag, and a clear error from one that
 * does not (the base kernel, in scripts/basecmp.sh).
 */
static void test_load_attr(void)
{
	libbpf_print_fn_t old_print;
	char log[4096];
	bool kernel_attr;
	struct btf *btf;
	int fd, err;

	btf = btf__new_empty();
	if (!ASSERT_OK_PTR(btf, "new"))
		return;
	if (!ASSERT_GT(build(btf, "T:kptr>P>S", true), 0, "build") ||
	    !ASSERT_OK(btf_set_type_tag_conv(btf, BTF_TYPE_TAG_CONV_ATTRIBUTE), "attr"))
		goto out;
	/* the oracle: BPF_BTF_LOAD of the same BTF, without libbpf */
	fd = load_btf(btf, BTF_FLAG_TYPE_TAG_ATTR, log, sizeof(log));
	kernel_attr = fd >= 0;
	if (fd >= 0)
		close(fd);

	load_msg[0] = 0;
	old_print = libbpf_set_print(load_msg_print);
	err = btf__load_into_kernel(btf);
	libbpf_set_print(old_print);
	if (kernel_attr) {
		ASSERT_OK(err, "load");
	} else {
		ASSERT_EQ(err, -EOPNOTSUPP, "load");
		ASSERT_HAS_SUBSTR(load_msg, "attribute type tag convention", "message");
	}
out:
	btf__free(btf);
}

static void test_convert_progs(const char *name, skel_elf_bytes_fn elf_bytes)
{
	struct test_loader tester = {};
	const void *in;
	size_t in_sz;

	free(conv_bytes);
	in = elf_bytes(&in_sz);
	if (link_converted(in, in_sz, BTF_TYPE_TAG_CONV_ATTRIBUTE, &conv_bytes, &conv_sz))
		return;
	test_loader__run_subtests(&tester, name, conv_elf_bytes);
	test_loader_fini(&tester);
}

void test_btf_tag_conv(void)
{
	char name[96], *p;
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
	if (test__start_subtest("special_behind_long_run"))
		test_special_behind_long_run();
	for (i = 0; i < ARRAY_SIZE(conv_cases); i++) {
		snprintf(name, sizeof(name), "convert_%s", conv_cases[i].pointee);
		for (p = name; *p; p++)
			*p = *p == '>' ? '_' : *p == ':' ? '-' : *p;
		if (test__start_subtest(name))
			test_convert(&conv_cases[i]);
	}
	if (test__start_subtest("convert_shapes"))
		test_convert_shapes();
	if (test__start_subtest("convert_errors"))
		test_convert_errors();
	if (test__start_subtest("convert_dedup"))
		test_convert_dedup();
	if (test__start_subtest("convert_dump"))
		test_convert_dump();
	if (test__start_subtest("convert_linker"))
		test_convert_linker();
	if (test__start_subtest("convert_sanitize"))
		test_convert_sanitize();
	if (test__start_subtest("sanitize_decl_tag"))
		test_sanitize_decl_tag();
	if (test__start_subtest("light_skel_pointee"))
		test_light_skel_pointee();
	if (test__start_subtest("load_attr"))
		test_load_attr();
	test_convert_progs("btf_tag_conv_kptr", btf_tag_conv_kptr__elf_bytes);
	test_convert_progs("btf_tag_conv_user", btf_tag_conv_user__elf_bytes);
	free(conv_bytes);
	conv_bytes = NULL;
}

