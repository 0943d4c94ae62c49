// SPDX-License-Identifier: GPL-2.0
/* kptr fields declared in each way C allows, as the compilers emit them. */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bpf_misc.h"

/* TYPEDEF -> PTR -> TYPE_TAG -> STRUCT with every compiler */
typedef struct task_struct __kptr_untrusted *kp_t;

/* The tag is written on the pointer.  Clang 23 emits
 * TYPEDEF -> TYPE_TAG -> PTR -> STRUCT, GCC 16 emits
 * TYPEDEF -> PTR -> TYPE_TAG -> STRUCT, and Clang 21 drops the tag.
 */
typedef struct task_struct *__kptr_untrusted kp_star_t;

struct map_value {
	struct task_struct __kptr_untrusted *plain;
	/* CONST -> PTR -> TYPE_TAG -> STRUCT with every compiler */
	struct task_struct __kptr_untrusted * const cptr;
	kp_t td;
	kp_star_t td_star;
	/* GCC 16 emits PTR -> TYPE_TAG -> STRUCT, Clang drops the tag. */
	struct task_struct *__kptr_untrusted star;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct map_value);
	__uint(max_entries, 1);
} kptr_map SEC(".maps");

#if defined(__clang__) && __clang_major__ < 23
#define TD_STAR_IS_KPTR 0
#else
#define TD_STAR_IS_KPTR 1
#endif

#if defined(__clang__)
#define STAR_IS_KPTR 0
#else
#define STAR_IS_KPTR 1
#endif

static __always_inline struct map_value *value(void)
{
	int key = 0;

	return bpf_map_lookup_elem(&kptr_map, &key);
}

/* A kptr_untrusted load is PTR_TO_BTF_ID | PTR_UNTRUSTED, which may be
 * read through; plain data is a scalar, which may not.
 */
static __always_inline int read_pid(struct task_struct *p)
{
	return p ? p->pid : 0;
}

SEC("tp_btf/task_newtask")
__success
int kptr_plain(void *ctx)
{
	struct map_value *v = value();

	return v ? read_pid(v->plain) : 0;
}

SEC("tp_btf/task_newtask")
__success
int kptr_const(void *ctx)
{
	struct map_value *v = value();

	return v ? read_pid(v->cptr) : 0;
}

SEC("tp_btf/task_newtask")
__success
int kptr_typedef(void *ctx)
{
	struct map_value *v = value();

	return v ? read_pid(v->td) : 0;
}

SEC("tp_btf/task_newtask")
#if TD_STAR_IS_KPTR
__success
#else
__failure __msg("invalid mem access 'scalar'")
#endif
int kptr_typedef_star(void *ctx)
{
	struct map_value *v = value();

	return v ? read_pid(v->td_star) : 0;
}

SEC("tp_btf/task_newtask")
#if STAR_IS_KPTR
__success
#else
__failure __msg("invalid mem access 'scalar'")
#endif
int kptr_star(void *ctx)
{
	struct map_value *v = value();

	return v ? read_pid(v->star) : 0;
}

/* Referenced kptrs behind a const and a typedef: CONST -> PTR -> TYPE_TAG
 * -> STRUCT and TYPEDEF -> PTR -> TYPE_TAG -> STRUCT with every compiler.
 */
typedef struct task_struct __kptr *kref_t;

struct ref_value {
	struct task_struct __kptr * const cref;
	kref_t tdref;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct ref_value);
	__uint(max_entries, 1);
} ref_map SEC(".maps");

struct task_struct *bpf_task_acquire(struct task_struct *p) __ksym;
void bpf_task_release(struct task_struct *p) __ksym;

static __always_inline struct ref_value *ref_value(void)
{
	int key = 0;

	return bpf_map_lookup_elem(&ref_map, &key);
}

/* Store a reference to @task in the kptr at @field, release the old one. */
static __always_inline int stash(void *field, struct task_struct *task)
{
	struct task_struct *p, *old;

	p = bpf_task_acquire(task);
	if (!p)
		return 0;
	old = bpf_kptr_xchg(field, p);
	if (old)
		bpf_task_release(old);
	return 0;
}

SEC("tp_btf/task_newtask")
__success
int BPF_PROG(kptr_xchg_const, struct task_struct *task, u64 clone_flags)
{
	struct ref_value *v = ref_value();

	return v ? stash((void *)&v->cref, task) : 0;
}

SEC("tp_btf/task_newtask")
__success
int BPF_PROG(kptr_xchg_typedef, struct task_struct *task, u64 clone_flags)
{
	struct ref_value *v = ref_value();

	return v ? stash(&v->tdref, task) : 0;
}

char _license[] SEC("license") = "GPL";
