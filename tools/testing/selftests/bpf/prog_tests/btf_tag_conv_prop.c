// SPDX-License-Identifier: GPL-2.0
/*
 * The type tag conversion keeps the meaning of every chain.  A property
 * test over generated BTF: the judge is the classifier that the kernel
 * uses, asked about every member before the conversion, after it and
 * after the round trip.  A conversion that fails leaves the BTF
 * byte-identical.
 */
#include <test_progs.h>
#include <bpf/btf.h>
#include "bpf/libbpf_internal.h"

#define PROP_ROUNDS	4000
#define PROP_MEMBERS	6
#define PROP_LINKS	6
#define PROP_DEPTH	6

static __u32 prop_state;

static __u32 prop_rand(__u32 n)
{
	/* xorshift32: the same seed gives the same BTF */
	prop_state ^= prop_state << 13;
	prop_state ^= prop_state >> 17;
	prop_state ^= prop_state << 5;
	return prop_state % n;
}

enum prop_link {
	L_PTR, L_CONST, L_VOLATILE, L_RESTRICT, L_TYPEDEF, L_ATTR, L_TAG,
};

static const char * const prop_tags[] = {
	"kptr", "kptr_untrusted", "percpu_kptr", "uptr",
	"user", "percpu", "rcu", "arena", "foo",
};

struct prop_btf {
	struct btf *btf;
	int nodes[PROP_MEMBERS * PROP_LINKS];	/* links made so far */
	int nr_nodes;
	int ends[3];				/* void, int, struct */
};

static int prop_add_link(struct prop_btf *p, int kind, int ref)
{
	static int td;
	char name[16];

	switch (kind) {
	case L_PTR:
		return btf__add_ptr(p->btf, ref);
	case L_CONST:
		return btf__add_const(p->btf, ref);
	case L_VOLATILE:
		return btf__add_volatile(p->btf, ref);
	case L_RESTRICT:
		return btf__add_restrict(p->btf, ref);
	case L_TYPEDEF:
		snprintf(name, sizeof(name), "td%d", td++ % 8);
		return btf__add_typedef(p->btf, name, ref);
	case L_ATTR:
		return btf__add_type_attr(p->btf, "kptr", ref);
	default:
		return btf__add_type_tag(p->btf, prop_tags[kind - L_TAG], ref);
	}
}

/* One member's chain: up to PROP_LINKS links, then a void, int or struct
 * end, or a link of an earlier chain (shared nodes).  With @top_down the
 * outer links get the lower ids, as compilers often emit them.
 */
static int prop_chain(struct prop_btf *p, bool top_down, bool attr)
{
	int kinds[PROP_LINKS], ids[PROP_LINKS], n, i, end;
	struct btf_type *t;

	n = 1 + prop_rand(PROP_LINKS);
	for (i = 0; i < n; i++) {
		/* pointers and tags most often */
		switch (prop_rand(8)) {
		case 0: case 1: case 2:
			kinds[i] = L_PTR;
			break;
		case 3:
			kinds[i] = L_CONST + prop_rand(L_ATTR - L_CONST + 1);
			break;
		default:
			/* half of them pointer tags */
			kinds[i] = L_TAG + (prop_rand(2) ? prop_rand(4) :
					    prop_rand(ARRAY_SIZE(prop_tags)));
		}
	}
	/* In the attribute convention a pointer tag goes in front of a PTR:
	 * mostly put one there, so that most such BTF is valid.
	 */
	for (i = 0; attr && i + 1 < n; i++)
		if (kinds[i] >= L_TAG && kinds[i] < L_TAG + 4 && prop_rand(4))
			kinds[i + 1] = L_PTR;
	if (p->nr_nodes && !prop_rand(4))
		end = p->nodes[prop_rand(p->nr_nodes)];
	else
		end = p->ends[prop_rand(3)];
	if (top_down) {
		for (i = 0; i < n; i++)
			ids[i] = prop_add_link(p, kinds[i], 0);
		for (i = 0; i < n; i++) {
			t = (struct btf_type *)btf__type_by_id(p->btf, ids[i]);
			t->type = i + 1 < n ? ids[i + 1] : end;
		}
	} else {
		for (i = n - 1; i >= 0; i--) {
			ids[i] = prop_add_link(p, kinds[i], end);
			end = ids[i];
		}
	}
	for (i = 0; i < n; i++)
		p->nodes[p->nr_nodes++] = ids[i];
	return ids[0];
}

static struct btf *prop_generate(bool attr, int *val)
{
	struct prop_btf p = {};
	int i, heads[PROP_MEMBERS], n;
	struct btf_type *t;
	bool top_down = prop_rand(2);

	p.btf = btf__new_empty();
	if (!p.btf)
		return NULL;
	p.ends[1] = btf__add_int(p.btf, "int", 4, BTF_INT_SIGNED);
	p.ends[2] = btf__add_struct(p.btf, "task_struct", 4);
	btf__add_field(p.btf, "pid", p.ends[1], 0, 0);
	n = 1 + prop_rand(PROP_MEMBERS);
	for (i = 0; i < n; i++)
		heads[i] = prop_chain(&p, top_down, attr);
	/* Now and then a cycle of modifiers, which must fail with -ELOOP */
	if (!prop_rand(32)) {
		i = p.nodes[prop_rand(p.nr_nodes)];
		t = (struct btf_type *)btf__type_by_id(p.btf, i);
		if (!btf_is_ptr(t))
			t->type = i;
	}
	*val = btf__add_struct(p.btf, "val", 8 * n);
	for (i = 0; i < n; i++)
		btf__add_field(p.btf, "m", heads[i], 64 * i, 0);
	if (attr)
		btf_set_type_tag_conv(p.btf, BTF_TYPE_TAG_CONV_ATTRIBUTE);
	return p.btf;
}

/* After a PTR of the pointee convention, a run that ends in another PTR
 * and holds pointer, user or percpu tags is read twice: as the first
 * PTR's tags and as the second's.  The conversion keeps the first
 * reading, so the second is not compared.
 */
static bool prop_twice(const struct btf *btf, bool attr, __u32 id)
{
	struct btf_tag_run run;

	if (attr || btf_tag_run(btf, id, &run))
		return false;
	return btf_is_ptr(btf__type_by_id(btf, run.end)) &&
	       (run.tags & (BTF_TAGS_PTR | BTF_TAG_USER | BTF_TAG_PERCPU));
}

static void prop_print_class(const char *what, const struct btf *btf, __u32 id,
			     const struct btf_tag_class *c)
{
	fprintf(stdout, "  %s: [%u] err %d ptr [%u] tag %#x mem %#x, pointee kind %u\n",
		what, id, c->err, c->ptr_id, c->ptr_tag, c->mem_tags,
		btf_kind(btf__type_by_id(btf, c->pointee_id)));
}

/* Do the chains at @ida of @a and @idb of @b mean the same, pointer by
 * pointer?  Returns false and says where they differ.
 */
static bool prop_same(const struct btf *a, bool attr_a, __u32 ida,
		      const struct btf *b, bool attr_b, __u32 idb, int depth)
{
	struct btf_tag_class ca, cb;
	__u32 na, nb;

	if (btf_tag_classify(a, ida, attr_a, &ca) || btf_tag_classify(b, idb, attr_b, &cb)) {
		PRINT_FAIL("classify [%u] / [%u] at depth %d\n", ida, idb, depth);
		return false;
	}
	if (ca.err != cb.err || !ca.ptr_id != !cb.ptr_id || ca.ptr_tag != cb.ptr_tag ||
	    ca.mem_tags != cb.mem_tags ||
	    btf_kind(btf__type_by_id(a, ca.pointee_id)) !=
	    btf_kind(btf__type_by_id(b, cb.pointee_id))) {
		PRINT_FAIL("pointer %d of the chain differs\n", depth);
		prop_print_class("before", a, ida, &ca);
		prop_print_class("after", b, idb, &cb);
		return false;
	}
	if (ca.err || !ca.ptr_id || depth == PROP_DEPTH)
		return true;
	na = btf__type_by_id(a, ca.ptr_id)->type;
	nb = btf__type_by_id(b, cb.ptr_id)->type;
	if (prop_twice(a, attr_a, na) || prop_twice(b, attr_b, nb))
		return true;
	return prop_same(a, attr_a, na, b, attr_b, nb, depth + 1);
}

static bool prop_members_same(const struct btf *a, const struct btf *b, int val)
{
	const struct btf_type *ta = btf__type_by_id(a, val), *tb = btf__type_by_id(b, val);
	bool attr_a = btf__type_tag_conv(a) == BTF_TYPE_TAG_CONV_ATTRIBUTE;
	bool attr_b = btf__type_tag_conv(b) == BTF_TYPE_TAG_CONV_ATTRIBUTE;
	int i;

	for (i = 0; i < btf_vlen(ta); i++)
		if (!prop_same(a, attr_a, btf_members(ta)[i].type,
			       b, attr_b, btf_members(tb)[i].type, 1))
			return false;
	return true;
}

/* Dump the chains of a failing round, for the log */
static void prop_print(const struct btf *btf)
{
	const struct btf_type *t;
	__u32 i;

	for (i = 1; i < btf__type_cnt(btf); i++) {
		t = btf__type_by_id(btf, i);
		fprintf(stdout, "  [%u] %s '%s'%s -> %u\n", i, btf_kind_str(t),
			btf__name_by_offset(btf, t->name_off), btf_kflag(t) ? " kflag" : "",
			btf_is_composite(t) ? 0 : t->type);
	}
}

/* Conversions that succeeded, and refusals by error */
struct prop_stats {
	int converted, einval, eopnotsupp, eloop;
};

static bool prop_round(__u32 seed, struct prop_stats *st)
{
	enum btf_type_tag_conv from, to;
	struct btf *btf, *orig = NULL;
	const void *raw;
	void *raw0 = NULL;
	__u32 sz, sz0;
	bool ok = false;
	int err, val;

	/* spread consecutive seeds; xorshift needs a state other than 0 */
	prop_state = (seed * 2654435761u) ^ 0x9e3779b9u;
	if (!prop_state)
		prop_state = 1;
	from = prop_rand(2);
	to = !from;
	btf = prop_generate(from == BTF_TYPE_TAG_CONV_ATTRIBUTE, &val);
	if (!ASSERT_OK_PTR(btf, "generate"))
		return false;
	raw = btf__raw_data(btf, &sz0);
	raw0 = malloc(sz0);
	if (!ASSERT_OK_PTR(raw0, "malloc"))
		goto out;
	memcpy(raw0, raw, sz0);
	orig = btf__new(raw0, sz0);
	if (!ASSERT_OK_PTR(orig, "orig"))
		goto out;

	err = btf__convert_type_tags(btf, to, NULL);
	if (err) {
		switch (err) {
		case -EINVAL:
			st->einval++;
			break;
		case -EOPNOTSUPP:
			st->eopnotsupp++;
			break;
		case -ELOOP:
			st->eloop++;
			break;
		default:
			PRINT_FAIL("seed %u: error %d\n", seed, err);
			goto out;
		}
		raw = btf__raw_data(btf, &sz);
		if (sz != sz0 || memcmp(raw, raw0, sz)) {
			PRINT_FAIL("seed %u: a failed conversion changed the BTF\n", seed);
			goto out;
		}
		ok = true;
		goto out;
	}
	if (!prop_members_same(orig, btf, val)) {
		PRINT_FAIL("seed %u: the conversion changed a meaning\n", seed);
		goto out;
	}
	err = btf__convert_type_tags(btf, from, NULL);
	if (err) {
		PRINT_FAIL("seed %u: the way back failed: %d\n", seed, err);
		goto out;
	}
	if (!prop_members_same(orig, btf, val)) {
		PRINT_FAIL("seed %u: the round trip changed a meaning\n", seed);
		goto out;
	}
	st->converted++;
	ok = true;
out:
	if (!ok) {
		fprintf(stdout, "seed %u, %s BTF:\n", seed, from ? "attribute" : "pointee");
		if (orig)
			prop_print(orig);
	}
	btf__free(orig);
	btf__free(btf);
	free(raw0);
	return ok;
}

void test_btf_tag_conv_prop(void)
{
	struct prop_stats st = {};
	int i, failed = 0;
	__u32 seed = 1;
	char *s;

	s = getenv("BTF_TAG_CONV_SEED");
	if (s)
		seed = strtoul(s, NULL, 0);
	for (i = 0; i < PROP_ROUNDS && failed < 5; i++)
		if (!prop_round(seed + i, &st))
			failed++;
	fprintf(stdout,
		"seeds %u..%u: %d converted and back; refused: %d -EINVAL, %d -EOPNOTSUPP, %d -ELOOP; %d failed\n",
		seed, seed + i - 1, st.converted, st.einval, st.eopnotsupp, st.eloop, failed);
	/* A quarter of the generated BTF at least must convert (about a
	 * third does), or the test tests little.
	 */
	ASSERT_GT(st.converted, PROP_ROUNDS / 4, "converted");
	ASSERT_GT(st.eloop, 0, "cycles seen");
}
