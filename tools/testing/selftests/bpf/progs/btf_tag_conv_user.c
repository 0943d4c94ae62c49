// SPDX-License-Identifier: GPL-2.0
/* Pointers to user and percpu memory in a program's own BTF: members of
 * a local object, read through the object, as the compilers emit them
 * (PTR -> TYPE_TAG -> INT with Clang and GCC alike).  A pointer to a
 * non-struct member is read as untrusted kernel memory, unless it points
 * to user or per-CPU memory: then it stays a scalar.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_misc.h"
#include "bpf_experimental.h"

#define __tag_user __attribute__((btf_type_tag("user")))
#define __tag_percpu __attribute__((btf_type_tag("percpu")))

struct conv_node {
	/* PTR -> TYPE_TAG(user) -> INT */
	long __tag_user *user;
	/* PTR -> TYPE_TAG(percpu) -> INT */
	long __tag_percpu *pcpu;
	/* CONST -> PTR -> TYPE_TAG(user) -> INT */
	long __tag_user * const cuser;
	/* PTR -> TYPE_TAG -> TYPE_TAG -> INT: two kinds of memory */
	long __tag_user __tag_percpu *both;
	/* PTR -> INT */
	long *plain;
};

/* Allocate a node, and read what its member at @off points to: the
 * verifier types the member load from the node's BTF.
 */
static __always_inline long read_member(unsigned long off)
{
	struct conv_node *n = bpf_obj_new(typeof(*n));
	long *p, v = 0;

	if (!n)
		return 0;
	p = *(long **)((void *)n + off);
	if (p)
		v = *p;
	bpf_obj_drop(n);
	return v;
}

SEC("tc")
__success
int read_plain(void *ctx)
{
	return read_member(offsetof(struct conv_node, plain));
}

SEC("tc")
__failure __msg("invalid mem access 'scalar'")
int read_user(void *ctx)
{
	return read_member(offsetof(struct conv_node, user));
}

SEC("tc")
__failure __msg("invalid mem access 'scalar'")
int read_percpu(void *ctx)
{
	return read_member(offsetof(struct conv_node, pcpu));
}

SEC("tc")
__failure __msg("invalid mem access 'scalar'")
int read_const_user(void *ctx)
{
	return read_member(offsetof(struct conv_node, cuser));
}

SEC("tc")
__failure __msg("has multiple type tags")
int read_user_percpu(void *ctx)
{
	return read_member(offsetof(struct conv_node, both));
}

char _license[] SEC("license") = "GPL";
