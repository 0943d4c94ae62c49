// SPDX-License-Identifier: GPL-2.0
/* libbpf's type tag convention conversion of BTF: the chains it writes, the
 * kernel's verdict on them, its errors, and dedup and btf_dump of converted
 * BTF.
 */
#include <test_progs.h>
#include <bpf/btf.h>
#include "bpf/libbpf_internal.h"
#include "btf_tag_helpers.h"

/* libbpf's conversion between the conventions: each pointee chain, what it
 * becomes in the attribute convention, and what that becomes converted
 * back.  The verdicts stay the same.
 */
struct conv_case {
	const char *pointee, *attr, *back;
	/* The kernel's verdict on @pointee (btf.rst's table), fixed here
	 * rather than read from the running kernel
	 */
	enum btf_tag_expect verdict;
	/* The attribute form fails map creation: with the flag, a malformed
	 * kptr is an error; without it, the map is made without the field.
	 */
	bool attr_map_fail;
};

static const struct conv_case conv_cases[] = {
	{ "P>T:kptr>S", "T:kptr>P>S", "P>T:kptr>S", SPECIAL },
	{ "P>T:kptr_untrusted>S", "T:kptr_untrusted>P>S", "P>T:kptr_untrusted>S", SPECIAL },
	{ "P>T:percpu_kptr>S", "T:percpu_kptr>P>S", "P>T:percpu_kptr>S", SPECIAL },
	{ "P>T:uptr>S", "T:uptr>P>S", "P>T:uptr>S", MAP_FAIL },
	{ "C>P>T:kptr>S", "C>T:kptr>P>S", "C>P>T:kptr>S", SPECIAL },
	{ "V>P>T:kptr>S", "V>T:kptr>P>S", "V>P>T:kptr>S", SPECIAL },
	{ "D>P>T:kptr>S", "D>T:kptr>P>S", "D>P>T:kptr>S", SPECIAL },
	/* Links after the PTR stay there, behind the moved tags. */
	{ "P>C>T:kptr>S", "T:kptr>P>C>S", "P>T:kptr>C>S", SPECIAL },
	{ "P>T:rcu>T:kptr>S", "T:kptr>P>T:rcu>S", "P>T:kptr>T:rcu>S", SPECIAL },
	{ "P>T:kptr>P>S", "T:kptr>P>P>S", "P>T:kptr>P>S", DATA, true },
	{ "Y>P>T:kptr>S", "Y>T:kptr>P>S", "Y>P>T:kptr>S", SPECIAL },
	/* Nothing to move */
	{ "P>T:user>I", "P>T:user>I", "P>T:user>I", DATA },
	{ "P>T:foo>S", "P>T:foo>S", "P>T:foo>S", DATA },
	{ "P>A:kptr>S", "P>A:kptr>S", "P>A:kptr>S", DATA },
	{ "T:kptr>P>S", "T:kptr>P>S", "P>T:kptr>S", SPECIAL },
	{ "T:foo>L", "T:foo>L", "T:foo>L", SPECIAL },
};

/* Render the chain at @id the way btf_tag_add_chain() reads it. */
static void btf_tag_chain_str(const struct btf *btf, __u32 id, char *buf, size_t sz)
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
static __u8 btf_tag_header_flags(const struct btf *btf)
{
	return btf__type_tag_conv(btf) == BTF_TYPE_TAG_CONV_ATTRIBUTE ? BTF_FLAG_TYPE_TAG_ATTR : 0;
}

static void test_convert(const struct conv_case *c)
{
	enum btf_tag_expect want, want_attr, got;
	char buf[128], log[4096], kind[64];
	const char *want_kind;
	struct btf *btf;
	__u32 member;
	int val;

	btf = btf__new_empty();
	if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
		return;
	val = btf_tag_build(btf, c->pointee, false);
	if (!ASSERT_GT(val, 0, "build"))
		goto out;
	member = btf_members(btf__type_by_id(btf, val))[0].type;
	want = c->verdict;
	got = btf_tag_verdict_kind(btf, btf_tag_header_flags(btf), val, log, sizeof(log),
				   kind, sizeof(kind));
	ASSERT_STREQ(btf_tag_expect_str[got], btf_tag_expect_str[want], "verdict");
	want_kind = btf_tag_kptr_kind(c->pointee);
	if (got == SPECIAL && want_kind)
		ASSERT_STREQ(kind, want_kind, "kptr kind");

	if (!ASSERT_OK(btf__convert_type_tags(btf, BTF_TYPE_TAG_CONV_ATTRIBUTE, NULL), "to attr"))
		goto out;
	ASSERT_EQ(btf__type_tag_conv(btf), BTF_TYPE_TAG_CONV_ATTRIBUTE, "attr");
	btf_tag_chain_str(btf, member, buf, sizeof(buf));
	ASSERT_STREQ(buf, c->attr, "attr chain");
	got = btf_tag_verdict(btf, btf_tag_header_flags(btf), val, log, sizeof(log));
	want_attr = c->attr_map_fail ? MAP_FAIL : want;
	ASSERT_STREQ(btf_tag_expect_str[got], btf_tag_expect_str[want_attr], "attr verdict");

	if (!ASSERT_OK(btf__convert_type_tags(btf, BTF_TYPE_TAG_CONV_POINTEE, NULL), "to pointee"))
		goto out;
	ASSERT_EQ(btf__type_tag_conv(btf), BTF_TYPE_TAG_CONV_POINTEE, "pointee");
	btf_tag_chain_str(btf, member, buf, sizeof(buf));
	ASSERT_STREQ(buf, c->back, "pointee chain");
	got = btf_tag_verdict(btf, btf_tag_header_flags(btf), val, log, sizeof(log));
	ASSERT_STREQ(btf_tag_expect_str[got], btf_tag_expect_str[want], "pointee verdict");
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
		val = btf_tag_build(btf, shape_cases[i].from, shape_cases[i].attr);
		if (!ASSERT_GT(val, 0, shape_cases[i].from))
			goto next;
		if (shape_cases[i].attr)
			btf_set_type_tag_conv(btf, BTF_TYPE_TAG_CONV_ATTRIBUTE);
		to = shape_cases[i].attr ? BTF_TYPE_TAG_CONV_POINTEE : BTF_TYPE_TAG_CONV_ATTRIBUTE;
		if (!ASSERT_OK(btf__convert_type_tags(btf, to, NULL), shape_cases[i].from))
			goto next;
		btf_tag_chain_str(btf, btf_members(btf__type_by_id(btf, val))[0].type, buf,
				  sizeof(buf));
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
	static const char * const conflicts[] = {
		"P>T:kptr>T:percpu_kptr>S", "T:kptr>P>T:uptr>0", "T:kptr_untrusted>D>T:kptr>P>S",
		/* on an inner pointer */
		"P>P>T:uptr>T:percpu_kptr>S", "P>C>P>T:kptr>T:kptr_untrusted>I",
	};
	/* An outer kptr to an inner kptr: no pointer with two properties, in
	 * either convention, so the conversion loads with the flag.
	 */
	static const char * const nested[] = {
		"P>T:kptr>P>T:kptr_untrusted>S", "P>T:percpu_kptr>C>P>T:uptr>I",
	};
	char log[4096];
	int fd;
	/* The same, in the attribute convention */
	static const char * const attr_conflicts[] = {
		"P>T:uptr>T:percpu_kptr>P>S", "T:kptr>P>C>T:kptr>T:kptr_untrusted>P>I",
	};
	struct btf *btf, *copy;
	__u32 sz, sz2;
	const void *raw;
	void *data;
	int i, id;

	/* A pointer property of the attribute convention on a struct */
	btf = btf__new_empty();
	if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
		return;
	ASSERT_GT(btf_tag_build(btf, "P>T:kptr>S", true), 0, "build");
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
	ASSERT_GT(btf_tag_build(btf, "T:kptr>P>S", true), 0, "build");
	ASSERT_GT(btf_tag_add_chain(btf, "P>T:kptr>S",
				    btf__find_by_name_kind(btf, "task_struct", BTF_KIND_STRUCT),
				    -1, -1, btf__find_by_name_kind(btf, "int", BTF_KIND_INT)),
		  0, "bad chain");
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

	/* Two pointer properties on one pointer: plain data without the
	 * flag, a load error with it, so neither converts.
	 */
	for (i = 0; i < ARRAY_SIZE(conflicts); i++) {
		btf = btf__new_empty();
		if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
			return;
		ASSERT_GT(btf_tag_build(btf, conflicts[i], false), 0, conflicts[i]);
		ASSERT_EQ(btf__convert_type_tags(btf, BTF_TYPE_TAG_CONV_ATTRIBUTE, NULL), -EINVAL,
			  conflicts[i]);
		btf__free(btf);
	}
	for (i = 0; i < ARRAY_SIZE(nested); i++) {
		btf = btf__new_empty();
		if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
			return;
		ASSERT_GT(btf_tag_build(btf, nested[i], false), 0, nested[i]);
		if (ASSERT_OK(btf__convert_type_tags(btf, BTF_TYPE_TAG_CONV_ATTRIBUTE, NULL),
			      nested[i])) {
			fd = btf_tag_load(btf, BTF_FLAG_TYPE_TAG_ATTR, log, sizeof(log));
			if (!ASSERT_GE(fd, 0, "converted BTF loads with the flag"))
				printf("%s: %s\n", nested[i], log);
			else
				close(fd);
		}
		btf__free(btf);
	}
	for (i = 0; i < ARRAY_SIZE(attr_conflicts); i++) {
		btf = btf__new_empty();
		if (!ASSERT_OK_PTR(btf, "btf__new_empty"))
			return;
		ASSERT_GT(btf_tag_build(btf, attr_conflicts[i], true), 0, attr_conflicts[i]);
		ASSERT_OK(btf_set_type_tag_conv(btf, BTF_TYPE_TAG_CONV_ATTRIBUTE), "set attr");
		ASSERT_EQ(btf__convert_type_tags(btf, BTF_TYPE_TAG_CONV_POINTEE, NULL), -EINVAL,
			  attr_conflicts[i]);
		btf__free(btf);
	}

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
	a = btf_tag_add_chain(btf, "T:kptr>P>S", ts, -1, -1, int_id);
	b = btf_tag_add_chain(btf, "T:kptr>P>S", ts, -1, -1, int_id);
	btf__add_struct(btf, "val", 16);
	btf__add_field(btf, "a", a, 0, 0);
	btf__add_field(btf, "b", b, 64, 0);
	ASSERT_OK(btf_set_type_tag_conv(btf, BTF_TYPE_TAG_CONV_ATTRIBUTE), "set attr");
	if (!ASSERT_OK(btf__dedup(btf, NULL), "dedup"))
		goto out;
	ASSERT_EQ(btf__type_cnt(btf), 6, "types");
	ASSERT_EQ(btf__type_tag_conv(btf), BTF_TYPE_TAG_CONV_ATTRIBUTE, "attr");
	btf_tag_chain_str(btf, btf_members(btf__type_by_id(btf, 5))[1].type, buf, sizeof(buf));
	ASSERT_STREQ(buf, "T:kptr>P>S", "chain");
out:
	btf__free(btf);
}

/* The chain of the first member of struct @name in @btf */
static void member_chain(const struct btf *btf, const char *name, char *buf, size_t sz)
{
	int id = btf__find_by_name_kind(btf, name, BTF_KIND_STRUCT);

	buf[0] = 0;
	if (ASSERT_GT(id, 0, name))
		btf_tag_chain_str(btf, btf_members(btf__type_by_id(btf, id))[0].type, buf, sz);
}

/* BTF put together from BTF of both conventions: btf__add_btf() converts
 * what it adds to the convention of the types already there, new split BTF
 * takes its base's convention, and btf__distill_base() keeps the convention
 * of both halves, or refuses split BTF whose base has the other one.
 */
static void test_convert_merge(void)
{
	struct btf *src, *dst = NULL, *split = NULL, *base = NULL, *mixed = NULL;
	struct btf *new_base = NULL, *new_split = NULL;
	const struct btf_type *t;
	int val, ts, kp, first;
	const void *raw;
	char buf[128];
	__u32 sz;

	src = btf__new_empty();
	if (!ASSERT_OK_PTR(src, "btf__new_empty"))
		return;
	val = btf_tag_build(src, "T:kptr>P>S", true);
	ASSERT_GT(val, 0, "build src");
	ASSERT_OK(btf_set_type_tag_conv(src, BTF_TYPE_TAG_CONV_ATTRIBUTE), "set attr");

	/* Added to pointee BTF that has types: converted */
	dst = btf__new_empty();
	if (!ASSERT_OK_PTR(dst, "btf__new_empty"))
		goto out;
	ASSERT_GT(btf_tag_build(dst, "I", false), 0, "build dst");
	first = btf__add_btf(dst, src);
	if (!ASSERT_GT(first, 0, "add to pointee"))
		goto out;
	ASSERT_EQ(btf__type_tag_conv(dst), BTF_TYPE_TAG_CONV_POINTEE, "stays pointee");
	t = btf__type_by_id(dst, first + val - 1);
	btf_tag_chain_str(dst, btf_members(t)[0].type, buf, sizeof(buf));
	ASSERT_STREQ(buf, "P>T:kptr>S", "converted chain");

	/* Added to BTF without types: it takes the convention */
	btf__free(dst);
	dst = btf__new_empty();
	if (!ASSERT_OK_PTR(dst, "btf__new_empty"))
		goto out;
	ASSERT_EQ(btf__add_btf(dst, src), 1, "add to empty");
	ASSERT_EQ(btf__type_tag_conv(dst), BTF_TYPE_TAG_CONV_ATTRIBUTE, "takes attr");
	btf_tag_chain_str(dst, btf_members(btf__type_by_id(dst, val))[0].type, buf, sizeof(buf));
	ASSERT_STREQ(buf, "T:kptr>P>S", "unchanged chain");

	/* Split BTF on attribute-convention BTF, distilled */
	split = btf__new_empty_split(src);
	if (!ASSERT_OK_PTR(split, "btf__new_empty_split"))
		goto out;
	ASSERT_EQ(btf__type_tag_conv(split), BTF_TYPE_TAG_CONV_ATTRIBUTE, "split takes attr");
	ts = btf__find_by_name_kind(src, "task_struct", BTF_KIND_STRUCT);
	kp = btf__add_type_tag(split, "kptr", btf__add_ptr(split, ts));
	btf__add_struct(split, "outer", 8);
	btf__add_field(split, "p", kp, 0, 0);
	if (!ASSERT_OK(btf__distill_base(split, &new_base, &new_split), "distill"))
		goto out;
	ASSERT_EQ(btf__type_tag_conv(new_base), BTF_TYPE_TAG_CONV_ATTRIBUTE, "distilled base");
	ASSERT_EQ(btf__type_tag_conv(new_split), BTF_TYPE_TAG_CONV_ATTRIBUTE, "distilled split");
	member_chain(new_split, "outer", buf, sizeof(buf));
	ASSERT_STREQ(buf, "T:kptr>P>S", "distilled chain");

	/* The same split BTF on pointee-convention BTF with the same IDs */
	base = btf__new_empty();
	if (!ASSERT_OK_PTR(base, "btf__new_empty"))
		goto out;
	ASSERT_EQ(btf_tag_build(base, "T:kptr>P>S", false), val, "build base");
	raw = btf__raw_data(split, &sz);
	mixed = btf__new_split(raw, sz, base);
	if (!ASSERT_OK_PTR(mixed, "btf__new_split"))
		goto out;
	ASSERT_EQ(btf__type_tag_conv(mixed), BTF_TYPE_TAG_CONV_ATTRIBUTE, "mixed split");
	btf__free(new_base);
	btf__free(new_split);
	new_base = NULL;
	new_split = NULL;
	ASSERT_EQ(btf__distill_base(mixed, &new_base, &new_split), -EOPNOTSUPP, "distill mixed");
out:
	btf__free(new_split);
	btf__free(new_base);
	btf__free(mixed);
	btf__free(base);
	btf__free(split);
	btf__free(dst);
	btf__free(src);
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
	a = btf_tag_add_chain(btf, "T:kptr>P>S", ts, -1, -1, int_id);
	b = btf_tag_add_chain(btf, "C>T:kptr>P>S", ts, -1, -1, int_id);
	d = btf__add_typedef(btf, "kp_t", btf_tag_add_chain(btf, "T:kptr>P>S", ts, -1, -1, int_id));
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
	a = btf_tag_add_chain(btf, "T:kptr>P>S", ts, -1, -1, int_id);
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

void test_btf_tag_conv_libbpf(void)
{
	char name[96], *p;
	int i;

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
	if (test__start_subtest("convert_merge"))
		test_convert_merge();
	if (test__start_subtest("convert_dedup"))
		test_convert_dedup();
	if (test__start_subtest("convert_dump"))
		test_convert_dump();
}
