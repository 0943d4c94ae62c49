// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What the BTF type tags of a chain mean: the one classifier that the
 * kernel and libbpf share.
 *
 * A chain starts at a member, variable, argument, return or element type
 * (its head) and runs through modifiers (CONST, VOLATILE, RESTRICT,
 * TYPEDEF, TYPE_TAG) to a PTR, then through more modifiers to the type
 * pointed to:
 *
 *	head -> [front modifiers] -> PTR -> [back modifiers] -> pointee
 *
 * A type tag in the chain is either a property of the pointer itself
 * (kptr, kptr_untrusted, percpu_kptr, uptr) or says what the memory
 * pointed to is (user, percpu, rcu, arena).  Where each may sit depends
 * on the convention of the BTF producer (BTF_FLAG_TYPE_TAG_ATTR):
 *
 *  pointee convention (flag clear, what the compilers emit):
 *	pointer property: front or back; memory: back, and "user" and
 *	"percpu" in front too, so that no shape makes that memory readable
 *	as kernel memory (where they meet another memory tag, the most
 *	restrictive one wins: user, then percpu, then rcu);
 *  attribute convention (flag set, where C puts type attributes):
 *	pointer property: front; memory: back.  A pointer property in the
 *	back modifiers belongs to the pointee, so to a pointer behind it.
 *
 * Type tags on a chain without a PTR mean nothing and are accepted.
 * Kind_flag=1 type tags (type attributes) and unknown names never mean
 * anything here.
 *
 * btf_tags_fill() works out the run of modifiers from every type to the
 * first non-modifier once, in one linear pass, so that every question
 * about a chain is answered in constant time; the kernel keeps it for
 * program BTF.  Without a memo, btf_tag_run() walks the run.
 */

#ifdef __KERNEL__
#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/bitops.h>
#include <linux/sched.h>
#include <linux/string.h>

#define btf__type_cnt			btf_nr_types
#define btf__name_by_offset		btf_name_by_offset
#define btf_tags_popcount(x)		hweight8(x)

#else

#include <errno.h>
#include <string.h>
#include <linux/kernel.h>
#include "btf.h"
#include "libbpf_internal.h"

#define btf_type_by_id			btf__type_by_id
#define btf_tags_popcount(x)		__builtin_popcount(x)

#endif /* __KERNEL__ */

/* The fixed table: the name of each known tag and its BTF_TAG_* bit.  The
 * bits in BTF_TAGS_PTR are properties of the pointer itself.
 */
static const struct {
	const char *name;
	__u8 bit;
} btf_tags_known[] = {
	{ "kptr",		BTF_TAG_KPTR },
	{ "kptr_untrusted",	BTF_TAG_KPTR_UNTRUSTED },
	{ "percpu_kptr",	BTF_TAG_PERCPU_KPTR },
	{ "uptr",		BTF_TAG_UPTR },
	{ "user",		BTF_TAG_USER },
	{ "percpu",		BTF_TAG_PERCPU },
	{ "rcu",		BTF_TAG_RCU },
	{ "arena",		BTF_TAG_ARENA },
};

static bool btf_tags_is_mod(const struct btf_type *t)
{
	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_TYPE_TAG:
		return true;
	default:
		return false;
	}
}

/* The BTF_TAG_* bit of a known kind_flag=0 type tag, else 0. */
__u8 btf_tag_bit(const struct btf *btf, const struct btf_type *t)
{
	const char *name;
	int i;

	if (BTF_INFO_KIND(t->info) != BTF_KIND_TYPE_TAG || BTF_INFO_KFLAG(t->info))
		return 0;
	name = btf__name_by_offset(btf, t->name_off);
	if (!name)
		return 0;
	for (i = 0; i < (int)ARRAY_SIZE(btf_tags_known); i++)
		if (!strcmp(name, btf_tags_known[i].name))
			return btf_tags_known[i].bit;
	return 0;
}

const char *btf_tag_name(__u8 bit)
{
	int i;

	for (i = 0; i < (int)ARRAY_SIZE(btf_tags_known); i++)
		if (bit & btf_tags_known[i].bit)
			return btf_tags_known[i].name;
	return "";
}

/* One step of a run: the modifier @t, followed by the run @next. */
static void btf_tags_step(const struct btf *btf, const struct btf_type *t,
			  const struct btf_tag_run *next, struct btf_tag_run *run)
{
	run->end = next->end;
	run->tags = next->tags | btf_tag_bit(btf, t);
	run->len = next->len < BTF_TAG_RUN_SAT ? next->len + 1 : BTF_TAG_RUN_SAT;
	run->tags_only = next->tags_only &&
			 BTF_INFO_KIND(t->info) == BTF_KIND_TYPE_TAG;
	run->state = BTF_TAG_RUN_DONE;
}

/* The run of @id, from the memo if it has one, else by walking the run.
 * Returns -EINVAL for an id out of range and -ELOOP for a run without an
 * end (a modifier cycle, which the kernel rejects before it asks).
 */
int btf_tag_run(const struct btf *btf, __u32 id, struct btf_tag_run *run)
{
	const struct btf_tag_run *memo;
	const struct btf_type *t;
	__u32 tags = 0, len = 0, n = btf__type_cnt(btf), steps = 0;
	bool tags_only = true;

	for (;;) {
		t = btf_type_by_id(btf, id);
		if (!t)
			return -EINVAL;
		if (!btf_tags_is_mod(t)) {
			run->end = id;
			break;
		}
		/* Only modifiers have a run in the memo */
		memo = btf_tag_memo(btf, id);
		if (memo && memo->state == BTF_TAG_RUN_DONE) {
			run->end = memo->end;
			tags |= memo->tags;
			len += memo->len;
			tags_only = tags_only && memo->tags_only;
			break;
		}
		if (++steps > n)
			return -ELOOP;
		tags |= btf_tag_bit(btf, t);
		len++;
		tags_only = tags_only && BTF_INFO_KIND(t->info) == BTF_KIND_TYPE_TAG;
		id = t->type;
	}
	run->tags = tags;
	run->len = len < BTF_TAG_RUN_SAT ? len : BTF_TAG_RUN_SAT;
	run->tags_only = tags_only;
	run->state = BTF_TAG_RUN_DONE;
	return 0;
}

/*
 * Fill @memo[id - start_id] for every modifier of @btf from @start_id on
 * (the entries of other types stay unused), in one pass: each type is
 * visited a bounded number of times.  The way down a run is kept in the
 * memo itself (state BTF_TAG_RUN_BUSY, end = the type above), so there
 * is no stack and no recursion.  The memo of types below @start_id
 * (split BTF) must be filled already, or absent.  Returns 0; -EINVAL for
 * a type id out of range; -ELOOP for a modifier cycle.  On error
 * *@bad_id is the type where it was found.  *@all_tags gets the
 * BTF_TAG_* bits of every known tag of those types.
 */
int btf_tags_fill(const struct btf *btf, __u32 start_id, struct btf_tag_run *memo,
		  __u32 *bad_id, __u8 *all_tags)
{
	__u32 i, id, up, n = btf__type_cnt(btf);
	const struct btf_type *t;
	struct btf_tag_run next;
	__u8 seen = 0;
	int err;

	for (i = start_id; i < n; i++) {
#ifdef __KERNEL__
		if (!(i % 1024))
			cond_resched();
#endif
		/* Down: stack the types of the run that are not done yet. */
		up = 0;
		id = i;
		while (id >= start_id) {
			t = btf_type_by_id(btf, id);
			if (!t) {
				*bad_id = id;
				return -EINVAL;
			}
			/* The run of a non-modifier is itself: no entry */
			if (!btf_tags_is_mod(t) ||
			    memo[id - start_id].state == BTF_TAG_RUN_DONE)
				break;
			if (memo[id - start_id].state == BTF_TAG_RUN_BUSY) {
				*bad_id = id;
				return -ELOOP;
			}
			seen |= btf_tag_bit(btf, t);
			memo[id - start_id].state = BTF_TAG_RUN_BUSY;
			memo[id - start_id].end = up;
			up = id;
			id = t->type;
		}
		/* Up: each stacked modifier takes the run below it. */
		while (up) {
			t = btf_type_by_id(btf, up);
			err = btf_tag_run(btf, t->type, &next);
			if (err) {
				*bad_id = up;
				return err;
			}
			id = memo[up - start_id].end;
			btf_tags_step(btf, t, &next, &memo[up - start_id]);
			up = id;
		}
	}
	if (all_tags)
		*all_tags = seen;
	return 0;
}

/* The pointee-memory tags @mem after a PTR, with "user" or "percpu" tags
 * @front in front of it (pointee convention).  Where that makes two of
 * user, percpu and rcu, which the tags after the PTR alone do not, keep
 * the most restrictive: a chain that loaded before does not become an
 * error, and user or per-CPU memory never becomes readable.
 */
static __u8 btf_tags_front_mem(__u8 mem, __u8 front)
{
	const __u8 kinds = BTF_TAG_USER | BTF_TAG_PERCPU | BTF_TAG_RCU;
	__u8 all = mem | front;

	if (!front || btf_tags_popcount(mem & kinds) > 1)
		return all;
	if (all & BTF_TAG_USER)
		return (all & ~kinds) | BTF_TAG_USER;
	if (all & BTF_TAG_PERCPU)
		return (all & ~kinds) | BTF_TAG_PERCPU;
	return all;
}

/*
 * Classify the chain that starts at @id in @btf, whose producer uses the
 * attribute convention if @attr.  See the comment at the top.
 */
int btf_tag_classify(const struct btf *btf, __u32 id, bool attr,
		     struct btf_tag_class *c)
{
	struct btf_tag_run front, back;
	const struct btf_type *t;
	__u8 ptr, mem;
	int err;

	memset(c, 0, sizeof(*c));
	err = btf_tag_run(btf, id, &front);
	if (err)
		return err;
	t = btf_type_by_id(btf, front.end);
	if (!t || BTF_INFO_KIND(t->info) != BTF_KIND_PTR) {
		c->pointee_id = front.end;
		c->ignored = front.tags;
		if (front.len > BTF_TAG_CHAIN_MAX) {
			c->err = -ELOOP;
			c->why = "chain longer than 32 modifiers";
		}
		return 0;
	}
	err = btf_tag_run(btf, t->type, &back);
	if (err)
		return err;
	c->ptr_id = front.end;
	c->pointee_id = back.end;

	mem = back.tags & BTF_TAGS_MEM;
	if (attr) {
		ptr = front.tags & BTF_TAGS_PTR;
		c->ignored = (front.tags & BTF_TAGS_MEM) | (back.tags & BTF_TAGS_PTR);
	} else {
		ptr = (front.tags | back.tags) & BTF_TAGS_PTR;
		c->ignored = front.tags & (BTF_TAG_RCU | BTF_TAG_ARENA);
		mem = btf_tags_front_mem(mem, front.tags & (BTF_TAG_USER | BTF_TAG_PERCPU));
	}
	c->ptr_tag = ptr;
	c->mem_tags = mem;
	if (btf_tags_popcount(ptr) > 1) {
		c->err = -EINVAL;
		c->why = "conflicting pointer tags";
	} else if (front.len > BTF_TAG_CHAIN_MAX || back.len > BTF_TAG_CHAIN_MAX) {
		c->err = -ELOOP;
		c->why = "chain longer than 32 modifiers";
	}
	return 0;
}
