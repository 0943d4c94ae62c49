// SPDX-License-Identifier: GPL-2.0
/* Referenced kptrs behind a const and a typedef are released with their map. */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "../test_kmods/bpf_testmod_kfunc.h"

/* CONST -> PTR -> TYPE_TAG -> STRUCT and TYPEDEF -> PTR -> TYPE_TAG ->
 * STRUCT with every compiler.
 */
typedef struct prog_test_ref_kfunc __kptr *test_ref_t;

struct ref_value {
	struct prog_test_ref_kfunc __kptr * const cref;
	test_ref_t tdref;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct ref_value);
	__uint(max_entries, 1);
} ref_map SEC(".maps");

/* The test object's reference count while count_refs() holds one. */
int refs;

SEC("syscall")
int count_refs(void *ctx)
{
	struct prog_test_ref_kfunc *p;
	unsigned long arg = 0;

	p = bpf_kfunc_call_test_acquire(&arg);
	if (!p)
		return 1;
	refs = p->cnt.refs.counter;
	bpf_kfunc_call_test_release(p);
	return 0;
}

/* Move a new reference into the kptr at @field, which must be empty. */
static __always_inline int stash(void *field)
{
	struct prog_test_ref_kfunc *p;
	unsigned long arg = 0;

	p = bpf_kfunc_call_test_acquire(&arg);
	if (!p)
		return 1;
	p = bpf_kptr_xchg(field, p);
	if (p) {
		bpf_kfunc_call_test_release(p);
		return 2;
	}
	return 0;
}

SEC("syscall")
int stash_const(void *ctx)
{
	int key = 0;
	struct ref_value *v = bpf_map_lookup_elem(&ref_map, &key);

	return v ? stash((void *)&v->cref) : 3;
}

SEC("syscall")
int stash_typedef(void *ctx)
{
	int key = 0;
	struct ref_value *v = bpf_map_lookup_elem(&ref_map, &key);

	return v ? stash(&v->tdref) : 3;
}

char _license[] SEC("license") = "GPL";
