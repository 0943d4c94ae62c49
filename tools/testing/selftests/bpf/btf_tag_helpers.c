// SPDX-License-Identifier: GPL-2.0
/* Type tag chains in raw BTF, and what the kernel makes of them, for the
 * btf_tag_conv* tests.
 */
#include <test_progs.h>
#include <bpf/btf.h>
#include <linux/btf.h>
#include <linux/filter.h>
#include "btf_tag_helpers.h"

const char * const btf_tag_expect_str[] = { "data", "special", "load_fail", "map_fail" };

/* Add the chain @s (outermost first) and return the outermost type id. */
int btf_tag_add_chain(struct btf *btf, const char *s, int ts, int lock, int nested,
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
int btf_tag_build(struct btf *btf, const char *chain, bool attr)
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
	f = btf_tag_add_chain(btf, chain, ts, lock, nested, int_id);
	if (f < 0)
		return f;
	val = btf__add_struct(btf, "val", 16);
	btf__add_field(btf, "f", f, 0, 0);
	btf__add_field(btf, "x", long_id, 64, 0);
	return val;
}

int btf_tag_load(struct btf *btf, __u8 flags, char *log, size_t log_sz)
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
int btf_tag_map_create(int btf_fd, int key_id, int val_id, __u32 vsz, __u32 flags,
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
int btf_tag_map_roundtrip(int btf_fd, int key_id, int val_id, __u32 vsz,
			  const void *in, void *out, __u64 flags)
{
	int fd, key = 0, err = -2;

	fd = btf_tag_map_create(btf_fd, key_id, val_id, vsz, 0, NULL, 0);
	if (fd < 0)
		return -1;
	if (ASSERT_OK(bpf_map_update_elem(fd, &key, in, flags), "update") &&
	    ASSERT_OK(bpf_map_lookup_elem(fd, &key, out), "lookup"))
		err = 0;
	close(fd);
	return err;
}

/* What the verifier makes of a load from the kptr that @chain declares:
 * a kptr_untrusted, kptr or percpu_kptr to struct task_struct (S, or its
 * FWD F), each its own register type.  NULL for other chains.
 */
const char *btf_tag_kptr_kind(const char *chain)
{
	size_t n = strlen(chain);

	if (!n || (chain[n - 1] != 'S' && chain[n - 1] != 'F'))
		return NULL;
	if (strstr(chain, "T:kptr_untrusted>"))
		return "untrusted_ptr_or_null_task_struct";
	if (strstr(chain, "T:percpu_kptr>"))
		return "percpu_rcu_ptr_or_null_task_struct";
	if (strstr(chain, "T:kptr>"))
		return "rcu_ptr_or_null_task_struct";
	return NULL;
}

int btf_tag_map_err;

static char probe_log[65536];

/* The register type that the verifier logs for a load of the first 8
 * bytes of the value in map @map_fd, such as
 * "untrusted_ptr_or_null_task_struct" for a kptr_untrusted to struct
 * task_struct, or "scalar" for data, into @kind.  Returns 0, or -errno if
 * the program is refused (a load from a spin lock, for example).
 */
int btf_tag_probe_kind(int map_fd, char *kind, size_t kind_sz)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = probe_log,
		    .log_size = sizeof(probe_log), .log_level = 2);
	struct bpf_insn insns[] = {
		BPF_ST_MEM(BPF_W, BPF_REG_10, -4, 0),
		BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -4),
		BPF_LD_MAP_FD(BPF_REG_1, map_fd),
		BPF_EMIT_CALL(BPF_FUNC_map_lookup_elem),
		/* The null branch ends the program: a kernel that cannot
		 * tell that the element exists follows it too.
		 */
		BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 2),
		BPF_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_0, 0),
		/* A use of r3, so that the log shows its type */
		BPF_JMP_IMM(BPF_JEQ, BPF_REG_3, 0, 0),
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	static const char load[] = "r3 = *(u64 *)(r0 +0)";
	char *p, *e, *r = NULL;
	int fd;

	kind[0] = 0;
	probe_log[0] = 0;
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, NULL, "GPL", insns,
			   ARRAY_SIZE(insns), &opts);
	if (fd < 0)
		return -errno;
	close(fd);
	/* The state after the load, on its line of the log:
	 * "7: (79) r3 = *(u64 *)(r0 +0)  ; R0=map_value(...) R3_w=TYPE(id=2)"
	 */
	for (p = strstr(probe_log, load); p; p = strstr(e, load)) {
		e = strchrnul(p, '\n');
		r = strstr(p, " R3");
		if (r && r < e)
			break;
	}
	p = p ? strchr(r, '=') : NULL;
	if (!p)
		return -ENOENT;
	p++;
	for (e = p; *e && *e != '(' && *e != ' ' && *e != '\n'; e++)
		;
	snprintf(kind, kind_sz, "%.*s", (int)(e - p), p);
	return 0;
}

/* Update then look up one element: the kernel zeroes special fields.  A
 * map that cannot be created leaves -errno in btf_tag_map_err; with @kind,
 * a value whose first member is special gets btf_tag_probe_kind()'s answer.
 */
static enum btf_tag_expect probe_map(int btf_fd, int val_id, char *kind, size_t kind_sz)
{
	__u64 in[2] = { 0xa5a5a5a5a5a5a5a5ULL, 42 }, out[2] = {};
	enum btf_tag_expect got = MAP_FAIL;
	int fd, key = 0;

	/* btf_tag_build() adds "int" first: type id 1 is the key. */
	fd = btf_tag_map_create(btf_fd, 1, val_id, sizeof(in), 0, NULL, 0);
	btf_tag_map_err = fd < 0 ? fd : 0;
	if (fd < 0)
		return MAP_FAIL;
	if (ASSERT_OK(bpf_map_update_elem(fd, &key, in, 0), "update") &&
	    ASSERT_OK(bpf_map_lookup_elem(fd, &key, out), "lookup")) {
		ASSERT_EQ(out[1], 42, "plain member kept");
		/* A spin lock is 4 bytes, a kptr 8: the low word decides. */
		got = (__u32)out[0] ? DATA : SPECIAL;
	}
	if (kind && got == SPECIAL)
		btf_tag_probe_kind(fd, kind, kind_sz);
	close(fd);
	return got;
}

enum btf_tag_expect btf_tag_probe_map(int btf_fd, int val_id)
{
	return probe_map(btf_fd, val_id, NULL, 0);
}

/* Load @btf with the header flags @flags and probe the map whose value is
 * @val, or LOAD_FAIL with the kernel's log in @log.  With @kind, as
 * probe_map().
 */
enum btf_tag_expect btf_tag_verdict_kind(struct btf *btf, __u8 flags, int val,
					 char *log, size_t log_sz, char *kind,
					 size_t kind_sz)
{
	enum btf_tag_expect got;
	int fd;

	if (kind)
		kind[0] = 0;
	fd = btf_tag_load(btf, flags, log, log_sz);
	if (fd < 0)
		return LOAD_FAIL;
	got = probe_map(fd, val, kind, kind_sz);
	close(fd);
	return got;
}

enum btf_tag_expect btf_tag_verdict(struct btf *btf, __u8 flags, int val,
				    char *log, size_t log_sz)
{
	return btf_tag_verdict_kind(btf, flags, val, log, log_sz, NULL, 0);
}
